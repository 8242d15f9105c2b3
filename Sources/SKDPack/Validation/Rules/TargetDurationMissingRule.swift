import HLS

/// EXT-X-TARGETDURATION is REQUIRED in a media playlist: players size their buffers and reload timers from it.
struct TargetDurationMissingRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-targetduration-missing", severity: .error,
        summary: "A media playlist lacks EXT-X-TARGETDURATION.", specSection: "4.3.3.1")

    static let tags: Set<TagName>? = [.targetDuration]
    static let watchesSegments = false

    private var hasTargetDuration = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        if tag.name == .targetDuration { hasTargetDuration = true }
    }

    mutating func finish(in context: RuleContext) {
        guard !hasTargetDuration, context.reader.kind == .media else { return }
        context.report(
            Self.kind, "add #EXT-X-TARGETDURATION with the longest segment duration, rounded, in seconds",
            at: context.location(line: 1, offset: 0))
    }
}
