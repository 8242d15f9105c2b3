import HLS
import SKDKeys

/// With `--template`, every FairPlay key must be one the template makes, its variables within their
/// patterns (and equal to any `--var` given, to the title's own values with `--catalog` or
/// `--path-pattern`, and to its key period's own, `kid` and `key_index`, as `apply` renders them): a title
/// packaged by hand, missed by a migration, or given another title's or another period's key, shows up.
package struct TemplateMatchRule: ValidationRule {
    package static let kind = DiagnosticKind(
        id: "TPL-key-mismatch", severity: .error,
        summary: "A FairPlay key URI is not one the given template makes (form, variable patterns, values given).",
        specSection: "4.3.2.4")

    static let tags: Set<TagName>? = [.key, .sessionKey]

    /// The key period being read (a group of keys between segments): the KEYID of its first key that has
    /// one, its other keys' URIs where they have none, whether it encrypts, and its FairPlay keys, checked
    /// at its end (a KEYID may stand after the FairPlay key). Its key's number is `apply`'s
    /// (``KeyNumbers``): told by the KEYID, else the FairPlay URI, else the other keys' URIs.
    private var numbers = KeyNumbers()
    private var inPeriod = false
    private var encrypts = false
    private var periodKeyID: String?
    private var tags: UInt64?
    private var fairPlayKeys: [(uri: String, location: SourceLocation)] = []

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard context.templateMatcher != nil, let key = context.key else { return }
        if key.isSessionKey {
            if key.isFairPlay, let uri = key.uri, let attribute = tag.attributes?["URI"] {
                check(uri, at: line.location(in: context.path, column: attribute.valueColumn + 1), period: [:], in: context)
            }
            return
        }
        if !inPeriod { (inPeriod, encrypts, periodKeyID, tags) = (true, false, nil, nil) }
        if !key.isClear { encrypts = true }
        if periodKeyID == nil, let value = tag.attributes?["KEYID"]?.textBytes { periodKeyID = KeyLine.normalizedKeyID(value) }
        if key.isFairPlay {
            guard let uri = key.uri, let attribute = tag.attributes?["URI"] else { return }
            fairPlayKeys.append((uri, line.location(in: context.path, column: attribute.valueColumn + 1)))
        } else if let uri = key.uri {
            tags = KeyEvidence.combine(tags, KeyEvidence.digest(uri))
        }
    }

    /// A run of segments is judged at its first (a key period is judged at its first segment): the segments after it
    /// change nothing.
    mutating func segments(_ run: SegmentRun, in context: RuleContext) { replay(run, segments: 1, in: context) }

    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        guard inPeriod else { return }
        inPeriod = false
        checkPeriod(in: context)
    }

    mutating func finish(in context: RuleContext) { checkPeriod(in: context) }

    private mutating func checkPeriod(in context: RuleContext) {
        guard encrypts else { return }
        encrypts = false
        let evidence =
            periodKeyID.flatMap { KeyEvidence(kind: .keyID, keyIDHex: $0) }
            ?? fairPlayKeys.first.map { KeyEvidence(kind: .oldURI, digest: KeyEvidence.digest($0.uri)) }
            ?? tags.map { KeyEvidence(kind: .keyTags, digest: $0) }
        var values = ["key_index": String(numbers.number(of: evidence))]
        if let periodKeyID { values["kid"] = periodKeyID }
        for key in fairPlayKeys { check(key.uri, at: key.location, period: values, in: context) }
        fairPlayKeys = []
    }

    /// Checks a key against the template, with the title's values and its period's (`period`).
    private func check(_ uri: String, at location: SourceLocation, period: [String: String], in context: RuleContext) {
        guard let matcher = context.templateMatcher else { return }
        context.secretValues.formUnion(matcher.secretValues(in: uri))
        // The title's values where given (a catalogue row, a path); the period's where the title has none.
        let expected = context.expectedValues.mapValues(\.value).merging(period) { own, _ in own }
        guard case .mismatch(let reason) = matcher.check(uri, expected: expected) else { return }
        // A key the template makes with another title's or another period's values: both named.
        let differing = matcher.differingValues(in: uri, expected: expected)
        let message =
            differing.isEmpty
            ? reason
            : differing.map { name, carried, own in
                if context.expectedValues[name] == nil, period[name] != nil {
                    return "this key carries \(name)=\(carried), but its key period's is \(own)"
                }
                let theirs = context.titleValues?.catalog?.rows(giving: name, carried) ?? []
                let owner = theirs.isEmpty ? "" : " (the value of \(theirs.prefix(3).joined(separator: ", ")))"
                let source = context.expectedValues[name]?.source ?? "its values"
                return "this key carries \(name)=\(carried)\(owner), but this title's is \(own) (\(source))"
            }.joined(separator: "; ")
                + Self.consequence(of: differing.map(\.name), period: { context.expectedValues[$0] == nil && period[$0] != nil })
        context.report(Self.kind, message, at: location)
    }

    /// What a key URI carrying other values than its own does to a player: another period's key, another
    /// title's, or a request to another license server than this title's.
    private static func consequence(of differing: [String], period: (String) -> Bool) -> String {
        if differing.allSatisfy(period) { return ": a player would play this period with another period's key" }
        if differing.contains("content_id") || differing.contains("kid") {
            return ": another title's key would play this title with that title's license"
        }
        return ": a player would ask for this title's key with values that are not this title's (another license server, "
            + "another account)"
    }
}
