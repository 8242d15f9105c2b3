import HLS

/// With `--template`, every FairPlay key must be one the template makes, its variables within their
/// patterns (and equal to any `--var` given): a title packaged by hand, or missed by a migration, shows up.
struct TemplateMatchRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "TPL-key-mismatch", severity: .error,
        summary: "A FairPlay key URI is not one the given template makes (form, variable patterns, values given).",
        specSection: "4.3.2.4")

    static let tags: Set<TagName>? = [.key, .sessionKey]
    static let watchesSegments = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard let matcher = context.templateMatcher, let key = KeyTag(tag), FairPlay.isFairPlayKey(key),
            let uri = key.uri, let attribute = tag.attributes?["URI"]
        else { return }
        context.secretValues.formUnion(matcher.secretValues(in: uri))
        if case .mismatch(let reason) = matcher.check(uri) {
            context.report(Self.kind, reason, line: line, column: attribute.valueColumn + 1)
        }
    }
}
