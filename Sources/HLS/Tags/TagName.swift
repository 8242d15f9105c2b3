/// Every tag of RFC 8216 and of rfc8216bis, by its name as written after `#`.
public enum TagName: String, CaseIterable, Sendable, Codable {
    // Basic tags (4.3.1)
    case extM3U = "EXTM3U"
    case version = "EXT-X-VERSION"
    // Media segment tags (4.3.2)
    case extInf = "EXTINF"
    case byteRange = "EXT-X-BYTERANGE"
    case discontinuity = "EXT-X-DISCONTINUITY"
    case key = "EXT-X-KEY"
    case map = "EXT-X-MAP"
    case programDateTime = "EXT-X-PROGRAM-DATE-TIME"
    case gap = "EXT-X-GAP"
    case bitrate = "EXT-X-BITRATE"
    case part = "EXT-X-PART"
    case dateRange = "EXT-X-DATERANGE"
    // Media playlist tags (4.3.3)
    case targetDuration = "EXT-X-TARGETDURATION"
    case mediaSequence = "EXT-X-MEDIA-SEQUENCE"
    case discontinuitySequence = "EXT-X-DISCONTINUITY-SEQUENCE"
    case endList = "EXT-X-ENDLIST"
    case playlistType = "EXT-X-PLAYLIST-TYPE"
    case iFramesOnly = "EXT-X-I-FRAMES-ONLY"
    case partInf = "EXT-X-PART-INF"
    case serverControl = "EXT-X-SERVER-CONTROL"
    case skip = "EXT-X-SKIP"
    case preloadHint = "EXT-X-PRELOAD-HINT"
    case renditionReport = "EXT-X-RENDITION-REPORT"
    // Master (multivariant) playlist tags (4.3.4)
    case media = "EXT-X-MEDIA"
    case streamInf = "EXT-X-STREAM-INF"
    case iFrameStreamInf = "EXT-X-I-FRAME-STREAM-INF"
    case sessionData = "EXT-X-SESSION-DATA"
    case sessionKey = "EXT-X-SESSION-KEY"
    case contentSteering = "EXT-X-CONTENT-STEERING"
    // Tags of either kind of playlist (4.3.5)
    case independentSegments = "EXT-X-INDEPENDENT-SEGMENTS"
    case start = "EXT-X-START"
    case define = "EXT-X-DEFINE"
    // Removed in protocol version 7; recognised so it can be reported.
    case allowCache = "EXT-X-ALLOW-CACHE"

    /// The tag named by `bytes` (the name without `#`), or `nil` for a tag this library does not know.
    public init?(bytes: UnsafeRawBufferPointer) {
        // EXTINF is on every other line of a media playlist: test it before anything else.
        if bytes.count == 6, bytes.elementsEqual("EXTINF".utf8) {
            self = .extInf
            return
        }
        guard let candidates = Self.byLength[bytes.count] else { return nil }
        for candidate in candidates where bytes.elementsEqual(candidate.rawValue.utf8) {
            self = candidate
            return
        }
        return nil
    }

    private static let byLength: [Int: [TagName]] = Dictionary(grouping: allCases) { $0.rawValue.utf8.count }
}
