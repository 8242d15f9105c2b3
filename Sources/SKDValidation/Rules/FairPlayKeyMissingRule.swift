import HLS
import SKDKeys

/// A key period encrypted with SAMPLE-AES for the other systems (Widevine, PlayReady) but with no FairPlay
/// key in force: a FairPlay player has no key to ask for, and the title does not play on Apple devices. A
/// title that was never given its FairPlay keys (a packaging step skipped or failed) looks exactly so, and
/// must not pass a pre-publish check. Judged where a template says FairPlay keys are expected
/// (`--template`): without one, a title may be packaged for the other systems only. Said once a playlist,
/// at the first such period.
struct FairPlayKeyMissingRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "FPS-key-missing", severity: .error,
        summary: "A key period is encrypted (SAMPLE-AES) for other systems but has no FairPlay key, where a template says "
            + "FairPlay keys are expected: a FairPlay player cannot play it.",
        specSection: "4.3.2.4")
    static let tags: Set<TagName>? = []

    private var reported = false

    /// A run of segments is judged at its first (the keys in force change only at a tag): the segments after it change
    /// nothing.
    mutating func segments(_ run: SegmentRun, in context: RuleContext) { replay(run, segments: 1, in: context) }

    /// Judged on the keys the reader holds in force for the segment (one per KEYFORMAT).
    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        guard !reported, context.templateMatcher != nil, !context.reader.hasKeyInForce(format: FairPlay.keyFormat),
            let other = context.reader.firstKeyInForce(where: { $0.attribute("METHOD", is: FairPlay.method) })
        else { return }
        reported = true
        let format = KeyTag(attributes: other.attributes, isSessionKey: false).keyFormat
        context.report(
            Self.kind,
            "this key period is encrypted with METHOD=\(FairPlay.method) (the \(ProtectionSystemsRule.describe([format])) key of "
                + "line \(other.line)) but has no FairPlay key: a FairPlay player has no key to ask for; give it one "
                + "(skdpack apply writes one with the template)",
            onLine: other.line)
    }
}
