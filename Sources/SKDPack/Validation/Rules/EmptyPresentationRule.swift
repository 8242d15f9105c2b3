import HLS

/// A playlist with neither a media segment nor a variant stream gives a player nothing to play: usually a
/// packaging step that failed after writing the header.
struct EmptyPresentationRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-nothing-to-play", severity: .error,
        summary: "The playlist has neither media segments nor variant streams.", specSection: "4.3.4.2")

    private var hasContent = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        if tag.name == .streamInf || tag.name == .iFrameStreamInf { hasContent = true }
    }

    mutating func segment(at line: PlaylistLine, in context: RuleContext) { hasContent = true }

    mutating func finish(in context: RuleContext) {
        guard !hasContent, context.reader.lineCount > 0 else { return }
        context.report(
            Self.kind, "the playlist lists no segment and no variant stream; nothing here can play",
            at: context.location(line: 1, offset: 0))
    }
}
