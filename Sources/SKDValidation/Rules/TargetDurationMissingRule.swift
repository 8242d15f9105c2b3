import HLS

/// EXT-X-TARGETDURATION is REQUIRED in a media playlist: players size their buffers and reload timers from it;
/// and "its value MUST be at least 1" (rfc8216bis 4.4.3.1): a live playlist with 0 would be reloaded
/// without pause.
struct TargetDurationMissingRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-targetduration-missing", severity: .error,
        summary: "A media playlist lacks EXT-X-TARGETDURATION, or has 0.", specSection: "4.3.3.1")

    static let tags: Set<TagName>? = [.targetDuration]
    static let watchesSegments = false

    private var hasTargetDuration = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard tag.name == .targetDuration else { return }
        hasTargetDuration = true
        if case .decimalInteger(0) = tag.value {
            context.report(
                Self.kind, "the target duration must be at least 1 (rfc8216bis 4.4.3.1): write the longest segment duration, rounded",
                line: line, column: tag.valueColumn ?? 1)
        }
    }

    mutating func finish(in context: RuleContext) {
        guard !hasTargetDuration, context.reader.kind == .media else { return }
        context.report(
            Self.kind, "add #EXT-X-TARGETDURATION with the longest segment duration, rounded, in seconds",
            at: context.location(line: 1, offset: 0))
    }
}
