import HLS

/// RFC 8216 4.3.2.5: a Media Initialization Section encrypted with AES-128 has no media sequence number to
/// derive its IV from, so "the IV attribute of the EXT-X-KEY tag that applies to the EXT-X-MAP is REQUIRED".
struct MapWithoutIVRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-map-key-without-iv", severity: .error,
        summary: "An EXT-X-MAP is encrypted with METHOD=AES-128 by a key without IV.",
        specSection: "4.3.2.5")

    static let tags: Set<TagName>? = [.map]
    static let watchesSegments = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard tag.name == .map else { return }
        for key in context.reader.keysInForce where key.key.method == "AES-128" && key.key.iv == nil {
            context.report(
                Self.kind,
                "the AES-128 key of line \(key.line) applies to this EXT-X-MAP but has no IV; give that EXT-X-KEY an IV",
                line: line)
            return
        }
    }
}
