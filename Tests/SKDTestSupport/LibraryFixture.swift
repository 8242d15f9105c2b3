import Foundation

/// A generated content library, as a packager writes one: per title a master, four video playlists, one
/// audio and one I-frame playlist, each with Widevine, PlayReady and FairPlay keys (the FairPlay ones in
/// the legacy `skd://{title}` form, the thing a migration rewrites), and FairPlay session keys in the
/// master. Written under a fresh temporary directory, removed by ``remove()``.
public struct LibraryFixture {
    public let root: URL
    public let titles: Int

    public static let widevine =
        #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="data:text/plain;base64,AAAANHBzc2g=",KEYFORMAT="urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed",KEYFORMATVERSIONS="1""#
    public static let playReady =
        #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="data:text/plain;charset=UTF-16;base64,AAAANHBzc2g=",KEYFORMAT="com.microsoft.playready",KEYFORMATVERSIONS="1""#

    public static func fairPlay(_ title: String, tag: String = "EXT-X-KEY") -> String {
        #"#\#(tag):METHOD=SAMPLE-AES,URI="skd://\#(title)",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#
    }

    public init(titles: Int, segments: Int = 12) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("skdpack-library-\(UUID().uuidString)")
        self.titles = titles
        for number in 0..<titles {
            let title = String(format: "title-%04d", number)
            let directory = root.appendingPathComponent(title)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let videos = ["video-360p", "video-540p", "video-720p", "video-1080p"]
            var master = "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-INDEPENDENT-SEGMENTS\n"
            master += Self.fairPlay(title, tag: "EXT-X-SESSION-KEY") + "\n"
            master +=
                #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",LANGUAGE="en",DEFAULT=YES,CHANNELS="2",URI="audio-en.m3u8""# + "\n"
            for (index, video) in videos.enumerated() {
                master +=
                    "#EXT-X-STREAM-INF:BANDWIDTH=\((index + 1) * 1_000_000),CODECS=\"avc1.64001f,mp4a.40.2\",AUDIO=\"aac\"\n\(video).m3u8\n"
            }
            master += #"#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=200000,CODECS="avc1.64001f",URI="iframes.m3u8""# + "\n"
            try write(master, to: directory.appendingPathComponent("master.m3u8"))
            for name in videos + ["audio-en", "iframes"] {
                try write(Self.media(title: title, name: name, segments: segments), to: directory.appendingPathComponent("\(name).m3u8"))
            }
        }
    }

    static func media(title: String, name: String, segments: Int) -> String {
        // An I-frame playlist's EXT-X-MAP needs version 5, any other's 6 (rfc8216bis 8).
        var text = "#EXTM3U\n#EXT-X-VERSION:\(name == "iframes" ? 5 : 6)\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        if name == "iframes" { text += "#EXT-X-I-FRAMES-ONLY\n" }
        text += "#EXT-X-MAP:URI=\"\(name)-init.mp4\"\n"
        text += widevine + "\n" + playReady + "\n" + fairPlay(title) + "\n"
        for segment in 0..<segments {
            if name == "iframes" { text += "#EXT-X-BYTERANGE:2000@\(segment * 50_000)\n" }
            text += "#EXTINF:6.000,\n\(name)-\(segment).m4s\n"
        }
        return text + "#EXT-X-ENDLIST\n"
    }

    private func write(_ text: String, to url: URL) throws {
        try Data(text.utf8).write(to: url)
    }

    public func path(_ relative: String = "") -> String {
        relative.isEmpty ? root.path : root.appendingPathComponent(relative).path
    }

    public func remove() { try? FileManager.default.removeItem(at: root) }
}
