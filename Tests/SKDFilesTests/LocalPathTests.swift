import Testing

@testable import SKDFiles

/// A master's references made local paths, and paths normalised, read on bytes when ASCII, against the
/// Character path that reads the rest: the same answer for every short reference or path over the
/// characters that matter (blanks to trim, a scheme's `://`, `data:`, a query, a fragment; `.` and `..`).
@Suite("master references: local paths")
struct LocalPathTests {
    @Test("the byte path agrees with the Character path on every short reference", arguments: [0, 1, 2, 3, 4, 5])
    func agrees(length: Int) {
        let alphabet: [Character] = [" ", "\t", "a", "/", ":", "?", "#", "d", "."]
        for uri in everyString(of: length, over: alphabet) {
            #expect(MasterReferences.localPath(uri) == MasterReferences.characterLocalPath(uri), "\(uri.debugDescription)")
        }
    }

    @Test(
        "references as masters write them",
        arguments: [
            ("video/720p.m3u8", "video/720p.m3u8"), ("  a.m3u8\t", "a.m3u8"), ("a.m3u8?token=1#x", "a.m3u8"),
            ("/abs/a.m3u8", "/abs/a.m3u8"), ("https://cdn.example.com/a.m3u8", nil), ("data:text/plain,x", nil), (" \t ", nil),
            ("vidéo/720p.m3u8", "vidéo/720p.m3u8"),
        ] as [(String, String?)])
    func cases(uri: String, expected: String?) {
        #expect(MasterReferences.localPath(uri) == expected)
        #expect(MasterReferences.characterLocalPath(uri) == expected)
    }

    @Test("path normalisation on bytes agrees with the Character path on every short path", arguments: [0, 1, 2, 3, 4, 5, 6, 7])
    func normalization(length: Int) {
        let alphabet: [Character] = ["/", ".", "a", "b"]
        for path in everyString(of: length, over: alphabet) {
            #expect(PathComponents.normalized(path) == Self.characterNormalized(path), "\(path.debugDescription)")
        }
        #expect(PathComponents.normalized("lib/t7/./video/../master.m3u8") == "lib/t7/master.m3u8")
        #expect(PathComponents.normalized("/srv/vidéo/../a.m3u8") == "/srv/a.m3u8")
    }

    /// Normalisation as it was written on Characters before it read paths' bytes: the reference.
    static func characterNormalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." { parts.removeLast() } else { parts.append(part) }
        }
        let joined = parts.joined(separator: "/")
        return path.hasPrefix("/") ? "/" + joined : (joined.isEmpty ? "." : joined)
    }
}

@Suite("path components")
struct PathComponentsTests {
    @Test("components read on bytes are those split on Characters, for every short path over /, a and é", arguments: [0, 1, 2, 3, 4, 5, 6])
    func agrees(length: Int) {
        let alphabet: [Character] = ["/", "a", "é"]
        for path in everyString(of: length, over: alphabet) {
            #expect(PathComponents.of(path) == path.split(separator: "/").map(String.init), "\(path.debugDescription)")
        }
    }

    @Test("a playlist's file name, stem and title folder")
    func identity() {
        let identity = PlaylistIdentity(path: "lib//t7/video-720p.m3u8", titlePath: "lib/t7/master.m3u8")
        #expect(identity.fileName == "video-720p.m3u8")
        #expect(identity.stem == "video-720p")
        #expect(identity.titleDirectory == "t7")
        #expect(PlaylistIdentity(path: "a.m3u8").titleDirectory == ".")
    }
}

/// Every string of `length` characters over `alphabet`, for the exhaustive comparisons above.
func everyString(of length: Int, over alphabet: [Character]) -> [String] {
    (0..<length).reduce([""]) { strings, _ in strings.flatMap { string in alphabet.map { string + String($0) } } }
}
