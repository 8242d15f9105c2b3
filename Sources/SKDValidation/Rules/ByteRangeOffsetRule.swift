import HLS

/// RFC 8216 4.3.2.2: an EXT-X-BYTERANGE without `@offset` starts where the previous segment's sub-range
/// ended, so "a previous Media Segment MUST appear in the Playlist file and MUST be a sub-range of the same
/// media resource"; otherwise the segment is undefined. rfc8216bis 4.4.4.5 writes EXT-X-MAP's BYTERANGE as
/// `<n>@<o>` with the offset REQUIRED: a map has no segment before it to continue.
struct ByteRangeOffsetRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-byterange-without-offset", severity: .error,
        summary: "An EXT-X-BYTERANGE has no @offset, but the segment before it is not a sub-range of the same resource; or an "
            + "EXT-X-MAP's BYTERANGE has none.",
        specSection: "4.3.2.2")

    static let tags: Set<TagName>? = [.byteRange, .map]

    /// The URI of the previous segment when it was a sub-range, and whether the pending one needs it.
    private var previousRangeURI: String?
    private var pendingWithoutOffset: RulePlace?
    private var pendingIsRange = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        if tag.name == .map, let range = tag.attributes?["BYTERANGE"], range.isQuoted, !range.text.contains("@") {
            context.report(
                Self.kind, "EXT-X-MAP's BYTERANGE needs its offset (rfc8216bis 4.4.4.5): write \"\(range.text.prefix(20))@<offset>\"",
                line: line, column: range.column)
        }
        guard tag.name == .byteRange, case .byteRange(_, let offset) = tag.value else { return }
        pendingIsRange = true
        pendingWithoutOffset = offset == nil ? context.place(line) : nil
    }

    /// A run of segments is judged at its first two: the first may close a range written before it, and the
    /// second, a whole file, forgets the range; the segments after them change nothing.
    mutating func segments(_ run: SegmentRun, in context: RuleContext) { replay(run, segments: 2, in: context) }

    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        // Most segments are whole files: no String is made for them.
        guard pendingIsRange else {
            previousRangeURI = nil
            return
        }
        let uri = line.text
        if let place = pendingWithoutOffset, previousRangeURI != uri {
            let why =
                previousRangeURI == nil
                ? "no sub-range of \(uri.prefix(80)) comes before it" : "the segment before it is a range of another resource"
            context.report(Self.kind, "this EXT-X-BYTERANGE has no @offset and \(why); write <length>@<offset>", at: place)
        }
        previousRangeURI = pendingIsRange ? uri : nil
        pendingWithoutOffset = nil
        pendingIsRange = false
    }
}
