import HLS

/// RFC 8216 4.3.4.1: "All audio EXT-X-MEDIA tags SHOULD have a CHANNELS attribute": players use it to pick
/// stereo or surround for the device they play on.
struct AudioChannelsRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-channels-missing", severity: .warning,
        summary: "An audio EXT-X-MEDIA has no CHANNELS attribute.", specSection: "4.3.4.1")

    static let tags: Set<TagName>? = [.media]
    static let watchesSegments = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard tag.name == .media, tag.unquoted("TYPE") == "AUDIO", tag.attributes?["CHANNELS"] == nil else { return }
        context.report(Self.kind, "add CHANNELS (e.g. CHANNELS=\"2\") to this audio rendition", line: line)
    }
}
