import HLS

/// With `--template`, every FairPlay key must be one the template makes, its variables within their
/// patterns (and equal to any `--var` given, and to the title's own values with `--catalog` or
/// `--path-pattern`): a title packaged by hand, missed by a migration, or given another title's key, shows up.
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
        let expected = context.expectedValues.mapValues(\.value)
        guard case .mismatch(let reason) = matcher.check(uri, expected: expected) else { return }
        // A key the template makes with another title's values: both titles named.
        let differing = matcher.differingValues(in: uri, expected: expected)
        let message =
            differing.isEmpty
            ? reason
            : differing.map { name, carried, own in
                let theirs = context.titleValues?.catalog?.rows(giving: name, carried) ?? []
                let owner = theirs.isEmpty ? "" : " (the value of \(theirs.prefix(3).joined(separator: ", ")))"
                let source = context.expectedValues[name]?.source ?? "its values"
                return "this key carries \(name)=\(carried)\(owner), but this title's is \(own) (\(source))"
            }.joined(separator: "; ") + ": another title's key would play this title with that title's license"
        context.report(Self.kind, message, line: line, column: attribute.valueColumn + 1)
    }
}
