import Foundation

/// A content library drawn from a seed whose true content keys are known, for the key map's properties:
/// per title a master with an audio rendition and one or two video renditions; keys that rotate or not,
/// one key for every track or a key per track, KEYIDs on Widevine keys or none, a METHOD=NONE clear lead
/// in the video or none; FairPlay keys whose old URIs name their key, packager placeholders (one
/// `skd://` URI everywhere), or no FairPlay key at all (apply inserts one). Every rotation or key per
/// track can be told from the playlists (a KEYID, an old URI or a Widevine tag that differs): what
/// nothing tells, no tool can keep apart.
public struct KeyMapLibrary {
    public let root: URL
    public struct Title: Sendable {
        public var folder: String
        public var contentID: String
        /// The true key of each encrypted period of each media playlist (by file name), in order.
        public var keys: [String: [String]]
        /// Whether its key tags say which key each period has (a KEYID in every period).
        public var hasKeyIDs: Bool
    }
    public private(set) var titles: [Title] = []

    static let widevine = "urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed"

    public init(seed: UInt64) throws {
        var random = SplitMix(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ 1)
        root = FileManager.default.temporaryDirectory.appendingPathComponent("skdpack-keymap-\(UUID().uuidString)")
        for number in 0..<(1 + Int(random.next() % 3)) {
            let folder = "title-\(seed)-\(number)"
            let contentID = "cid-\(seed)-\(number)"
            let directory = root.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let periods = 1 + Int(random.next() % 3)
            let rotates = periods > 1 && random.next() % 2 == 0
            let perTrack = random.next() % 3 == 0
            let keyIDs = random.next() % 2 == 0
            let clearLead = random.next() % 3 == 0
            // 0: old URIs naming their key; 1: one placeholder everywhere; 2: no FairPlay key.
            var fairPlay = Int(random.next() % 3)
            // A Widevine tag that differs per key tells the keys apart without KEYIDs; without Widevine keys
            // (fairPlay 0 or 1 only), the old URIs must.
            let widevine = keyIDs || fairPlay == 2 || random.next() % 2 == 0
            if !keyIDs, !widevine, fairPlay == 1, rotates || perTrack { fairPlay = 0 }
            let names = ["audio"] + (0..<(1 + Int(random.next() % 2))).map { "video-\($0)" }
            var keys: [String: [String]] = [:]
            for name in names {
                let track = perTrack ? (name == "audio" ? "a" : "v") : "x"
                let periodKeys = (0..<periods).map { period in
                    String(
                        format: "%016llx%08x%08x", seed, number, (track.unicodeScalars.first!.value << 16) + UInt32(rotates ? period : 0))
                }
                keys[name + ".m3u8"] = periodKeys
                var lines = [
                    "#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-TARGETDURATION:6", "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-MAP:URI=\"\(name).mp4\"",
                ]
                var segment = 0
                if clearLead, name != "audio" {
                    lines += ["#EXT-X-KEY:METHOD=NONE", "#EXTINF:6.000,", "\(name)-\(segment).m4s"]
                    segment += 1
                }
                for key in periodKeys {
                    if widevine {
                        let pssh = Data(("pssh" + key).utf8).base64EncodedString()
                        lines.append(
                            #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="data:text/plain;base64,\#(pssh)",\#(keyIDs ? "KEYID=0x\(key)," : "")KEYFORMAT="\#(Self.widevine)",KEYFORMATVERSIONS="1""#
                        )
                    }
                    let old = fairPlay == 0 ? "skd://old.example.com/\(contentID)/\(key)" : fairPlay == 1 ? "skd://placeholder" : nil
                    if let old {
                        lines.append(
                            #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="\#(old)",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#)
                    }
                    for _ in 0..<2 {
                        lines += ["#EXTINF:6.000,", "\(name)-\(segment).m4s"]
                        segment += 1
                    }
                }
                lines.append("#EXT-X-ENDLIST")
                try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: directory.appendingPathComponent(name + ".m3u8"))
            }
            var master = ["#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-INDEPENDENT-SEGMENTS"]
            master.append(#"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",LANGUAGE="en",DEFAULT=YES,CHANNELS="2",URI="audio.m3u8""#)
            for (index, name) in names.dropFirst().enumerated() {
                master.append(
                    "#EXT-X-STREAM-INF:BANDWIDTH=\((index + 1) * 900_000),CODECS=\"avc1.64001f,mp4a.40.2\",RESOLUTION=\(640 * (index + 1))x\(360 * (index + 1)),AUDIO=\"aac\""
                )
                master.append(name + ".m3u8")
            }
            try Data((master.joined(separator: "\n") + "\n").utf8).write(to: directory.appendingPathComponent("master.m3u8"))
            titles.append(Title(folder: folder, contentID: contentID, keys: keys, hasKeyIDs: keyIDs && widevine))
        }
    }

    public func path(_ relative: String = "") -> String {
        relative.isEmpty ? root.path : root.appendingPathComponent(relative).path
    }

    /// A catalogue of the titles (`title_dir,content_id,entitlement_url`), beside the library.
    public func writeCatalog(server: String) throws -> String {
        let path = root.path + "-catalog.csv"
        let rows = ["title_dir,content_id,entitlement_url"] + titles.map { "\($0.folder),\($0.contentID),\(server)" }
        try Data((rows.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Each FairPlay URI of the title's media playlists as they are now, with the true key of its period:
    /// the n-th encrypted period of a playlist has the n-th of its keys.
    public func uses(of title: Title) throws -> [(uri: String, key: String, place: String)] {
        var uses: [(uri: String, key: String, place: String)] = []
        for (file, keys) in title.keys.sorted(by: { $0.key < $1.key }) {
            let text = try String(contentsOf: root.appendingPathComponent(title.folder).appendingPathComponent(file), encoding: .utf8)
            var period = -1
            var inGroup = false
            var encrypted = false
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if line.hasPrefix("#EXT-X-KEY:") {
                    if !inGroup { (inGroup, encrypted) = (true, false) }
                    if !line.contains("METHOD=NONE"), !encrypted {
                        encrypted = true
                        period += 1
                    }
                    if line.contains("com.apple.streamingkeydelivery"), let start = line.range(of: "URI=\"")?.upperBound {
                        uses.append((String(line[start...].prefix { $0 != "\"" }), keys[period], "\(file):\(number + 1)"))
                    }
                } else if !line.hasPrefix("#") {
                    inGroup = false
                }
            }
        }
        return uses
    }

    /// Every file under the title, with its bytes.
    public func snapshot(of title: Title) throws -> [String: Data] {
        try GeneratedLibrary.files(under: path(title.folder))
    }

    public func remove() {
        try? FileManager.default.removeItem(at: root)
        try? FileManager.default.removeItem(atPath: root.path + "-catalog.csv")
    }
}
