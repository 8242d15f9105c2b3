import HLS

/// "A Master Playlist MUST NOT contain more than one EXT-X-SESSION-KEY tag with the same METHOD, URI, IV,
/// KEYFORMAT, and KEYFORMATVERSIONS attribute values": a repeat is a copy-paste or a rewrite run twice.
struct SessionKeyDuplicateRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "KEY-session-duplicate", severity: .error,
        summary: "Two EXT-X-SESSION-KEY tags have the same METHOD, URI, IV, KEYFORMAT and KEYFORMATVERSIONS.",
        specSection: "4.3.4.5")

    static let tags: Set<TagName>? = [.sessionKey]
    static let watchesSegments = false

    private var seen: [KeyTag: Int] = [:]

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard tag.name == .sessionKey, let key = context.key else { return }
        var identity = key.tag
        identity.hasExplicitKeyFormat = false
        if identity.keyFormatVersions == nil { identity.keyFormatVersions = "1" }
        identity.iv = identity.iv?.lowercased()
        if let first = seen[identity] {
            context.report(Self.kind, "this session key repeats the one on line \(first); remove it", line: line)
        } else {
            seen[identity] = line.raw.number
        }
    }
}
