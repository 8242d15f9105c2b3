import HLS

/// RFC 8216 lets EXT-X-ENDLIST "occur anywhere in the Media Playlist file", but players and packagers
/// read it as the end: segments written after it are dropped by some and played by others.
struct SegmentsAfterEndListRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-segments-after-endlist", severity: .warning,
        summary: "Media segments follow EXT-X-ENDLIST; players differ on whether they play them.",
        specSection: "4.3.3.4")

    private var endList: Int?
    private var reported = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        if tag.name == .endList, endList == nil { endList = line.raw.number }
    }

    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        guard let endList, !reported else { return }
        reported = true
        context.report(
            Self.kind, "this segment comes after #EXT-X-ENDLIST (line \(endList)); move EXT-X-ENDLIST to the end", line: line)
    }
}
