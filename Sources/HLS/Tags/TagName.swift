import Glibc

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
        // EXTINF is on every other line of a media playlist: recognise it with two loads, before anything else.
        if bytes.count == 6, bytes.loadUnaligned(as: UInt32.self) == Self.extiLE,
            bytes.loadUnaligned(fromByteOffset: 4, as: UInt16.self) == Self.nfLE
        {
            self = .extInf
            return
        }
        guard bytes.count < Self.byLength.count else { return nil }
        // Compared with the raw values, literals: reading them takes no reference count, where byte
        // arrays would each be retained and released (atomic operations, at every tag line).
        for candidate in Self.byLength[bytes.count] {
            let matches = candidate.rawValue.utf8.withContiguousStorageIfAvailable { name in
                memcmp(name.baseAddress!, bytes.baseAddress!, bytes.count) == 0
            }
            if matches == true {
                self = candidate
                return
            }
        }
        return nil
    }

    private static let extiLE = UInt32(littleEndian: 0x4954_5845)  // "EXTI"
    private static let nfLE = UInt16(littleEndian: 0x464E)  // "NF"

    /// Names grouped by length, so lookup compares only names of the right length.
    private static let byLength: [[TagName]] = {
        let longest = allCases.map(\.rawValue.utf8.count).max()!
        var table = Array(repeating: [TagName](), count: longest + 1)
        for name in allCases { table[name.rawValue.utf8.count].append(name) }
        return table
    }()

    /// Where the tag may appear (RFC 8216 sections 4.3.1 to 4.3.5).
    public var scope: TagScope {
        switch self {
        case .extM3U, .version: .basic
        case .extInf, .byteRange, .discontinuity, .key, .map, .programDateTime, .gap, .bitrate, .part, .dateRange:
            .mediaSegment
        case .targetDuration, .mediaSequence, .discontinuitySequence, .endList, .playlistType, .iFramesOnly,
            .partInf, .serverControl, .skip, .preloadHint, .renditionReport, .allowCache:
            .mediaPlaylist
        case .media, .streamInf, .iFrameStreamInf, .sessionData, .sessionKey, .contentSteering: .masterPlaylist
        case .independentSegments, .start, .define: .either
        }
    }

    /// Whether the tag may appear at most once in a playlist.
    public var appearsOnce: Bool {
        switch self {
        case .extM3U, .version, .targetDuration, .mediaSequence, .discontinuitySequence, .endList, .playlistType,
            .iFramesOnly, .partInf, .serverControl, .contentSteering, .independentSegments, .start, .skip:
            true
        default:
            false
        }
    }
}
