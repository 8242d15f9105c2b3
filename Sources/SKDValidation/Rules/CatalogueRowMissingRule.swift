import HLS
import SKDKeys

/// With `--catalog`, a title the catalogue has no row for is checked against the template's form and the
/// `--var` values only: its keys could carry another title's content id and pass. `apply` refuses such a
/// title; `validate` says so once per playlist, at its first FairPlay key, and goes on.
struct CatalogueRowMissingRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "TPL-no-catalogue-row", severity: .warning,
        summary: "With a catalogue, it has no row for the title: its keys are checked against the template's form only.",
        specSection: "4.3.2.4")

    static let tags: Set<TagName>? = [.key, .sessionKey]
    static let watchesSegments = false

    private var said = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard !said, let title = context.titleWithoutRow, context.templateMatcher != nil, let key = context.key,
            key.isFairPlay
        else { return }
        said = true
        context.report(
            Self.kind,
            "the catalogue has no row for this title (title_dir \(title)), so its keys are checked against the template's form "
                + "and the values given only, not the title's own; add a row for \(title)",
            line: line, column: 1)
    }
}
