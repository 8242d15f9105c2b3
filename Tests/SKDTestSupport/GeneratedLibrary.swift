import Foundation

/// A small content library drawn from a seed, as packagers and years of migrations leave them: titles with
/// a master (variants, an audio rendition, FairPlay session keys or none) or loose media playlists; key
/// rotation, a clear lead, Widevine and PlayReady keys beside FairPlay's; FairPlay key URIs in one of the
/// forms a library carries (`skd://{id}`, an entitlement server with `cid=`, an ExpressPlay token); LF or
/// CRLF, a final newline or none. Written under a fresh temporary folder, removed by ``remove()``.
public struct GeneratedLibrary {
    public let root: URL
    /// Each title's folder name and content id.
    public private(set) var titles: [(folder: String, contentID: String)] = []
    /// The ExpressPlay tokens written into old URIs: secrets a migration must never show.
    public private(set) var tokens: [String] = []
    /// The old URI forms this library was drawn with.
    public let forms: [OldForm]

    public enum OldForm: CaseIterable, Sendable {
        case contentID, entitlement, expressPlay
    }

    static let widevine = "urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed"

    /// `forms`: the old URI forms titles may have (each title one of them). `rotates`: each key period's
    /// FairPlay key has a URI of its own (`…/p1`), as a title whose keys rotate has.
    public init(seed: UInt64, titles count: Int? = nil, forms: [OldForm] = OldForm.allCases, rotates: Bool = false) throws {
        var random = SplitMix(seed: seed &+ 0x5EED)
        self.forms = forms
        root = FileManager.default.temporaryDirectory.appendingPathComponent("skdpack-generated-\(UUID().uuidString)")
        let titleCount = count ?? 1 + Int(random.next() % 5)
        for number in 0..<titleCount {
            let folder = "title-\(seed)-\(number)"
            let contentID = "cid-\(seed)-\(number)"
            let directory = root.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let form = forms[Int(random.next() % UInt64(forms.count))]
            let token = "Tok\(seed)x\(number)x" + String(random.next() % 1_000_000_007, radix: 36) + "ZZ"
            if form == .expressPlay { tokens.append(token) }
            let newline = random.next() % 4 == 0 ? "\r\n" : "\n"
            let uri = { (period: Int) -> String in
                switch form {
                case .contentID: "skd://\(contentID)" + (rotates ? "/p\(period)" : "")
                case .entitlement: "skd://old-lic.example.com/fps?cid=\(contentID)" + (rotates ? "&p=\(period)" : "")
                case .expressPlay:
                    "skd://fp.service.expressplay.com:80/hms/fp/rights/?ExpressPlayToken=\(token)" + (rotates ? "\(period)" : "")
                }
            }
            let names = (0..<(1 + Int(random.next() % 3))).map { "video-\($0)" } + (random.next() % 2 == 0 ? ["audio"] : [])
            let periods = 1 + Int(random.next() % 3)
            let clearLead = random.next() % 3 == 0
            let finalNewline = random.next() % 5 != 0
            for name in names {
                try write(
                    Self.media(
                        name: name, periods: periods, clearLead: clearLead, uri: uri, seed: seed, title: number, newline: newline,
                        finalNewline: finalNewline, rotates: rotates),
                    to: directory.appendingPathComponent(name + ".m3u8"))
            }
            if random.next() % 5 != 0 {
                var lines = ["#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-INDEPENDENT-SEGMENTS"]
                if random.next() % 2 == 0 {
                    lines.append(
                        #"#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="\#(uri(0))",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#
                    )
                }
                let audio = names.contains("audio")
                if audio {
                    lines.append(
                        #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",LANGUAGE="en",DEFAULT=YES,CHANNELS="2",URI="audio.m3u8""#)
                }
                for (index, name) in names.enumerated() where name != "audio" {
                    lines.append(
                        "#EXT-X-STREAM-INF:BANDWIDTH=\((index + 1) * 900_000),CODECS=\"avc1.64001f,mp4a.40.2\",RESOLUTION=\(640 * (index + 1))x\(360 * (index + 1))"
                            + (audio ? ",AUDIO=\"aac\"" : ""))
                    lines.append(name + ".m3u8")
                }
                try write(lines.joined(separator: newline) + newline, to: directory.appendingPathComponent("master.m3u8"))
            }
            titles.append((folder, contentID))
        }
    }

    static func media(
        name: String, periods: Int, clearLead: Bool, uri: (Int) -> String, seed: UInt64, title: Int, newline: String,
        finalNewline: Bool, rotates: Bool
    ) -> String {
        var lines = [
            "#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-TARGETDURATION:6", "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-MAP:URI=\"\(name)-init.mp4\"",
        ]
        var segment = 0
        if clearLead {
            lines += ["#EXTINF:6.000,", "\(name)-\(segment).m4s"]
            segment += 1
        }
        for period in 0..<periods {
            // A key that rotates has a KEYID per period; one that does not, one KEYID (its tags repeated).
            let kid = String(format: "%016llx%08x%08x", seed, title, rotates ? period : 0)
            lines.append(
                #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="data:text/plain;base64,AAAANHBzc2g=",KEYID=0x\#(kid),KEYFORMAT="\#(widevine)",KEYFORMATVERSIONS="1""#
            )
            lines.append(
                #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="\#(uri(period))",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#)
            for _ in 0..<2 {
                lines += ["#EXTINF:6.000,", "\(name)-\(segment).m4s"]
                segment += 1
            }
        }
        lines.append("#EXT-X-ENDLIST")
        return lines.joined(separator: newline) + (finalNewline ? newline : "")
    }

    private func write(_ text: String, to url: URL) throws {
        try Data(text.utf8).write(to: url)
    }

    public func path(_ relative: String = "") -> String {
        relative.isEmpty ? root.path : root.appendingPathComponent(relative).path
    }

    /// Every file under the library, hidden ones too, with its bytes.
    public func snapshot(_ relative: String = "") throws -> [String: Data] {
        try Self.files(under: path(relative))
    }

    /// Every file under `base`, hidden ones too, with its bytes.
    public static func files(under base: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        guard let enumerator = FileManager.default.enumerator(atPath: base) else { return [:] }
        while let name = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: base + "/" + name, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[name] = try Data(contentsOf: URL(fileURLWithPath: base + "/" + name))
            }
        }
        return files
    }

    /// A catalogue of the titles (`title_dir,content_id,entitlement_url`), written beside the library.
    public func writeCatalog(server: String) throws -> String {
        let path = root.path + "-catalog.csv"
        let rows = ["title_dir,content_id,entitlement_url"] + titles.map { "\($0.folder),\($0.contentID),\(server)" }
        try Data((rows.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    public func remove() {
        try? FileManager.default.removeItem(at: root)
        try? FileManager.default.removeItem(atPath: root.path + "-catalog.csv")
    }
}
