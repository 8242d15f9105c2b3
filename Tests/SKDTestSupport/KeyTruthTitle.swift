import Foundation

/// A title with key rotation and per-track keys, as a key server and a packager would make it: 480p,
/// 1080p and 2160p video, stereo and 5.1 audio, two key periods; a CPIX document with an SD, HD, UHD,
/// stereo and multichannel key per period, each with FairPlay signaling (`skd://<kid>`); and an init
/// segment per playlist and period, `cbcs`, carrying its key's id. The playlists start with old keys that
/// `apply --cpix` must replace.
public struct KeyTruthTitle {
    public static let renditions: [(playlist: String, track: InitSegmentMaker.Track, label: String)] = [
        ("video-480.m3u8", .video(width: 854, height: 480), "SD"),
        ("video-1080.m3u8", .video(width: 1920, height: 1080), "HD"),
        ("video-2160.m3u8", .video(width: 3840, height: 2160), "UHD"),
        ("audio-stereo.m3u8", .audio(channels: 2), "STEREO_AUDIO"),
        ("audio-51.m3u8", .audio(channels: 6), "MULTICHANNEL_AUDIO"),
    ]

    /// The key id of `label` in period 1 or 2: distinct for every track and period.
    public static func kid(_ label: String, period: Int) -> [UInt8] {
        let index = renditions.firstIndex { $0.label == label }!
        return (0..<16).map { UInt8(truncatingIfNeeded: 0x10 * (index + 1) + period + $0 * 7) }
    }

    public static func uuid(_ bytes: [UInt8]) -> String {
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let h = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(h[$0]) }.joined(separator: "-")
    }

    /// Writes the title into `directory`/title and the document into `directory`/keys.xml.
    public static func write(into directory: URL) throws {
        let title = directory.appendingPathComponent("title")
        try FileManager.default.createDirectory(at: title, withIntermediateDirectories: true)
        try master.write(to: title.appendingPathComponent("master.m3u8"), atomically: false, encoding: .utf8)
        for rendition in renditions {
            let stem = String(rendition.playlist.dropLast(".m3u8".count))
            try media(stem).write(to: title.appendingPathComponent(rendition.playlist), atomically: false, encoding: .utf8)
            for period in 1...2 {
                let bytes = InitSegmentMaker.segment(rendition.track, scheme: "cbcs", kid: kid(rendition.label, period: period))
                try Data(bytes).write(to: title.appendingPathComponent("\(stem)-init-p\(period).mp4"))
            }
        }
        try cpix.write(to: directory.appendingPathComponent("keys.xml"), atomically: false, encoding: .utf8)
    }

    static let master = """
        #EXTM3U
        #EXT-X-VERSION:6
        #EXT-X-INDEPENDENT-SEGMENTS
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Stereo",LANGUAGE="en",CHANNELS="2",DEFAULT=YES,AUTOSELECT=YES,URI="audio-stereo.m3u8"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Surround",LANGUAGE="en",CHANNELS="6",DEFAULT=NO,AUTOSELECT=YES,URI="audio-51.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=1200000,RESOLUTION=854x480,CODECS="avc1.64001f,mp4a.40.2",AUDIO="aud"
        video-480.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=5000000,RESOLUTION=1920x1080,CODECS="avc1.640028,mp4a.40.2",AUDIO="aud"
        video-1080.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=16000000,RESOLUTION=3840x2160,CODECS="hvc1.2.4.L153.B0,mp4a.40.2",AUDIO="aud"
        video-2160.m3u8

        """

    /// A media playlist: period 1 with its init segment and key, then period 2 with its own.
    static func media(_ stem: String) -> String {
        """
        #EXTM3U
        #EXT-X-VERSION:6
        #EXT-X-TARGETDURATION:6
        #EXT-X-PLAYLIST-TYPE:VOD
        #EXT-X-MAP:URI="\(stem)-init-p1.mp4"
        #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://old-key-1",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"
        #EXTINF:6.0,
        \(stem)-1.m4s
        #EXTINF:6.0,
        \(stem)-2.m4s
        #EXT-X-MAP:URI="\(stem)-init-p2.mp4"
        #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://old-key-2",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"
        #EXTINF:6.0,
        \(stem)-3.m4s
        #EXT-X-ENDLIST

        """
    }

    /// SPEKE v2 style: the MediaPackage presets (SD ≤ 1024×576, HD ≤ 1920×1080, UHD above; stereo and
    /// multichannel audio), one key per track type and period.
    static var cpix: String {
        var keys = ""
        var systems = ""
        var rules = ""
        for period in 1...2 {
            for rendition in renditions {
                let kid = uuid(kid(rendition.label, period: period))
                keys +=
                    #"<cpix:ContentKey kid="\#(kid)" commonEncryptionScheme="cbcs"><cpix:Data><pskc:Secret><pskc:PlainValue>c2VjcmV0LWtleS12YWx1ZQ==</pskc:PlainValue></pskc:Secret></cpix:Data></cpix:ContentKey>"#
                    + "\n"
                let line = #"METHOD=SAMPLE-AES,URI="skd://\#(kid)",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#
                let media = Data("#EXT-X-KEY:\(line)".utf8).base64EncodedString()
                let master = Data("#EXT-X-SESSION-KEY:\(line)".utf8).base64EncodedString()
                systems +=
                    #"<cpix:DRMSystem kid="\#(kid)" systemId="94ce86fb-07ff-4f43-adb8-93d2fa968ca2"><cpix:HLSSignalingData playlist="media">\#(media)</cpix:HLSSignalingData><cpix:HLSSignalingData playlist="master">\#(master)</cpix:HLSSignalingData></cpix:DRMSystem>"#
                    + "\n"
                let filter: String
                switch rendition.label {
                case "SD": filter = #"<cpix:VideoFilter maxPixels="589824"/>"#
                case "HD": filter = #"<cpix:VideoFilter minPixels="589825" maxPixels="2073600"/>"#
                case "UHD": filter = #"<cpix:VideoFilter minPixels="2073601"/>"#
                case "STEREO_AUDIO": filter = #"<cpix:AudioFilter maxChannels="2"/>"#
                default: filter = #"<cpix:AudioFilter minChannels="3"/>"#
                }
                rules +=
                    #"<cpix:ContentKeyUsageRule kid="\#(kid)" intendedTrackType="\#(rendition.label)"><cpix:KeyPeriodFilter periodId="keyPeriod_\#(period)"/>\#(filter)</cpix:ContentKeyUsageRule>"#
                    + "\n"
            }
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <cpix:CPIX xmlns:cpix="urn:dashif:org:cpix" xmlns:pskc="urn:ietf:params:xml:ns:keyprov:pskc" contentId="title-1" version="2.3">
            <cpix:ContentKeyList>
            \(keys)</cpix:ContentKeyList>
            <cpix:DRMSystemList>
            \(systems)</cpix:DRMSystemList>
            <cpix:ContentKeyPeriodList>
            <cpix:ContentKeyPeriod id="keyPeriod_2" index="2"/>
            <cpix:ContentKeyPeriod id="keyPeriod_1" index="1"/>
            </cpix:ContentKeyPeriodList>
            <cpix:ContentKeyUsageRuleList>
            \(rules)</cpix:ContentKeyUsageRuleList>
            </cpix:CPIX>

            """
    }
}
