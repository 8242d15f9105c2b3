import HLS

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
    static let tags: Set<TagName>? = [.key]

    /// The METHOD of each system's key in force, by KEYFORMAT, and the line of the first.
    private var inForce: [String: (method: String, line: Int)] = [:]
    private var reported = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard tag.name == .key, let key = KeyTag(tag) else { return }
        if key.isClear {
            inForce = [:]
        } else {
            inForce[key.keyFormat] = (key.method, line.raw.number)
        }
    }

    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        guard !reported, context.templateMatcher != nil, inForce[FairPlay.keyFormat] == nil,
            let (format, other) = inForce.filter({ $0.value.method == FairPlay.method }).min(by: { $0.value.line < $1.value.line })
        else { return }
        reported = true
        context.report(
            Self.kind,
            "this key period is encrypted with METHOD=\(FairPlay.method) (the \(ProtectionSystemsRule.describe([format])) key of "
                + "line \(other.line)) but has no FairPlay key: a FairPlay player has no key to ask for; give it one "
                + "(skdpack apply writes one with the template)",
            onLine: other.line)
    }
}
