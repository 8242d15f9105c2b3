import CPIX
import HLS

/// What a master playlist says of the track one of its references carries: the content key context a
/// CPIX usage rule selects by (a variant's or I-frame playlist's RESOLUTION, FRAME-RATE, VIDEO-RANGE and
/// BANDWIDTH; an `EXT-X-MEDIA` rendition's TYPE and CHANNELS).
enum MasterTrack {
    /// The track of the variant whose `EXT-X-STREAM-INF` (or `EXT-X-I-FRAME-STREAM-INF`) is `tag`.
    static func variant(_ tag: Tag) -> TrackContext {
        // RESOLUTION read by the engine's decimal-resolution parser; a product past Int (a hostile
        // 99999999999x99999999999) is no pixel count.
        var size: (width: UInt64, height: UInt64)?
        if case .decimalResolution(let width, let height)? = tag.attributes?["RESOLUTION"]?.typedValue(as: .decimalResolution) {
            size = (width, height)
        }
        let codecs = tag.quotedString("CODECS")?.split(separator: ",").map { $0.trimmingPrefix(" ").lowercased() } ?? []
        let audioOnly = tag.attributes?["RESOLUTION"] == nil && !codecs.isEmpty && codecs.allSatisfy(isAudioCodec)
        var track = TrackContext(type: audioOnly ? .audio : .video)
        if let size {
            let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
            if !overflow { track.pixels = Int(exactly: pixels) }
            track.resolution = "\(size.width)x\(size.height)"
        }
        track.frameRate = tag.decimalFloat("FRAME-RATE")
        track.isHDR = ["PQ", "HLG"].contains(tag.unquoted("VIDEO-RANGE") ?? "")
        track.bitrate = tag.decimalInteger("BANDWIDTH").flatMap { Int(exactly: $0) }
        return track
    }

    /// The track of the rendition `EXT-X-MEDIA` `tag` names.
    static func rendition(_ tag: Tag) -> TrackContext {
        switch tag.unquoted("TYPE") {
        case "AUDIO":
            var track = TrackContext(type: .audio)
            // CHANNELS is "6", or "16/JOC" (rfc8216bis 4.4.6.1): the count comes first.
            track.channels = tag.quotedString("CHANNELS").flatMap { Int($0.prefix { $0.isNumber }) }
            if let name = tag.quotedString("NAME") { track.labels = [name] }
            return track
        case "VIDEO": return TrackContext(type: .video)
        default: return TrackContext(type: .other)
        }
    }

    private static func isAudioCodec(_ codec: String) -> Bool {
        ["mp4a", "ac-3", "ec-3", "ac-4", "opus", "flac", "alac", "mha1", "mhm1"].contains { codec.hasPrefix($0) }
    }
}
