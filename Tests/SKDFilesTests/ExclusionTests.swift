import Foundation
import SKDFiles
import SKDTestSupport
import Testing

/// `--exclude`: what a directory's walk leaves out, held to a model of the promise over generated trees and
/// patterns. The model matches with a glob matcher of its own (`*`, `?`, literals), not `fnmatch`.
@Suite("exclusion patterns")
struct ExclusionTests {
    /// A tree of folders and playlists (names from a small alphabet, so that patterns meet them).
    struct Tree {
        var files: [String] = []
        var folders: [String] = []

        init(seed: UInt64) {
            var random = SplitMix(seed: seed)
            let names = ["a", "b", "show", "extras", "trailers", "ep01", "ep02"]
            func fill(_ prefix: String, depth: Int) {
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let name =
                        names.randomElement(using: &random)!
                        + (Bool.random(using: &random) ? "" : "-\(Int.random(in: 1...3, using: &random))")
                    let path = prefix.isEmpty ? name : prefix + "/" + name
                    if depth < 3, Bool.random(using: &random) {
                        if !folders.contains(path) { folders.append(path) }
                        fill(path, depth: depth + 1)
                    } else {
                        files.append(path + ".m3u8")
                    }
                }
            }
            fill("", depth: 0)
            files = Array(Set(files)).sorted()
        }

        /// Patterns users write: a name, a name with a wildcard, a path, a path with wildcards, one that fits nothing.
        func patterns(seed: UInt64) -> [String] {
            var random = SplitMix(seed: seed &+ 7)
            let paths = folders + files
            var patterns: [String] = []
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let path = paths.randomElement(using: &random) ?? "x"
                let name = String(path.split(separator: "/").last!)
                switch Int.random(in: 0..<6, using: &random) {
                case 0: patterns.append(name)
                case 1: patterns.append(String(name.prefix(2)) + "*")
                case 2: patterns.append(path)
                case 3: patterns.append("*/" + name)
                case 4: patterns.append("?" + String(name.dropFirst()))
                default: patterns.append("nothing-here-\(Int.random(in: 0..<9, using: &random))")
                }
            }
            return patterns
        }
    }

    /// `*` any run of bytes (`/` too), `?` one byte, anything else itself.
    static func glob(_ pattern: Substring, _ text: Substring) -> Bool {
        guard let first = pattern.first else { return text.isEmpty }
        switch first {
        case "*": return glob(pattern.dropFirst(), text) || (!text.isEmpty && glob(pattern, text.dropFirst()))
        case "?": return !text.isEmpty && glob(pattern.dropFirst(), text.dropFirst())
        default: return text.first == first && glob(pattern.dropFirst(), text.dropFirst())
        }
    }

    /// Whether `pattern` leaves out the entry at `path` (relative to the directory walked).
    static func excludes(_ pattern: String, _ path: String) -> Bool {
        pattern.contains("/") ? glob(pattern[...], path[...]) : glob(pattern[...], path.split(separator: "/").last!)
    }

    @Test("a walk leaves out what the patterns name, a folder with all it holds, and says which patterns fit nothing", arguments: 0..<150)
    func walkAgainstModel(seed: UInt64) throws {
        let tree = Tree(seed: seed)
        let patterns = tree.patterns(seed: seed)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("skdpack-exclusion-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for folder in tree.folders {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        for file in tree.files {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(file).deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("#EXTM3U\n#EXTINF:6,\ns.ts\n".utf8).write(to: root.appendingPathComponent(file))
        }
        var discovery = PlaylistDiscovery()
        discovery.exclusion = Exclusion(patterns)
        let result = discovery.discover([root.path])

        // The model: an entry is walked when no ancestor was left out; walked, it is left out when a pattern fits it.
        func ancestors(_ path: String) -> [String] {
            let parts = path.split(separator: "/")
            return (1..<parts.count).map { parts.prefix($0).joined(separator: "/") }
        }
        let entries = Set(tree.folders + tree.files)
        func walked(_ path: String) -> Bool { !ancestors(path).contains { folder in patterns.contains { Self.excludes($0, folder) } } }
        let expectedFiles = tree.files.filter { file in walked(file) && !patterns.contains { Self.excludes($0, file) } }
        let expectedExcluded = entries.filter { entry in walked(entry) && patterns.contains { Self.excludes($0, entry) } }
        // A pattern fits nothing when no entry fits it, walked or inside a folder left out.
        let expectedUnused = patterns.filter { pattern in !entries.contains { entry in Self.excludes(pattern, entry) } }

        let found = result.packages.flatMap(\.media).map { String($0.path.dropFirst(root.path.count + 1)) }.sorted()
        #expect(found == expectedFiles.sorted(), "patterns \(patterns)")
        #expect(Set(result.excluded.map { String($0.dropFirst(root.path.count + 1)) }) == expectedExcluded, "patterns \(patterns)")
        #expect(Set(result.unusedExclusions) == Set(expectedUnused), "patterns \(patterns)")
        #expect(result.readWithTitle.isEmpty)
    }

    @Test("a rendition left out that a master of the run lists is read with its title, and said so")
    func renditionOfAWalkedMaster() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("skdpack-exclusion-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("t"), withIntermediateDirectories: true)
        try Data("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\naudio.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=2\nvideo.m3u8\n".utf8)
            .write(to: root.appendingPathComponent("t/master.m3u8"))
        for name in ["audio", "video"] {
            try Data("#EXTM3U\n#EXTINF:6,\ns.ts\n".utf8).write(to: root.appendingPathComponent("t/\(name).m3u8"))
        }
        var discovery = PlaylistDiscovery()
        discovery.exclusion = Exclusion(["audio*"])
        let result = discovery.discover([root.path])
        #expect(result.packages.flatMap(\.media).map(\.path).contains(root.appendingPathComponent("t/audio.m3u8").path))
        #expect(result.readWithTitle == [root.appendingPathComponent("t/audio.m3u8").path])
        #expect(result.exclusionNotes(SettingNames()).contains { $0.contains("read all the same") })

        // A rendition in a folder of its own, the folder left out: the same.
        try FileManager.default.createDirectory(at: root.appendingPathComponent("t/hd"), withIntermediateDirectories: true)
        try Data("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nhd/video.m3u8\n".utf8).write(to: root.appendingPathComponent("t/master.m3u8"))
        try Data("#EXTM3U\n#EXTINF:6,\ns.ts\n".utf8).write(to: root.appendingPathComponent("t/hd/video.m3u8"))
        discovery.exclusion = Exclusion(["hd"])
        #expect(discovery.discover([root.path]).readWithTitle == [root.appendingPathComponent("t/hd/video.m3u8").path])
        // The input spelt otherwise than the master's references resolve (`…/./`): found all the same.
        #expect(discovery.discover([root.path + "/."]).readWithTitle.count == 1)

        discovery.exclusion = Exclusion(["./t/"])
        #expect(discovery.discover([root.path]).packages.isEmpty, "a pattern written ./t/ is the folder t")
    }

    @Test("a pattern ending in / fits folders only; one whose matches lie in a folder left out, or are hidden, fits something")
    func foldersAndFits() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("skdpack-exclusion-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for folder in ["t/extras", "t/trailers"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        for file in ["t/extras.m3u8", "t/extras/a.m3u8", "t/trailers/old.bak.m3u8", "t/.hidden.m3u8", "t/v.m3u8"] {
            try Data("#EXTM3U\n#EXTINF:6,\ns.ts\n".utf8).write(to: root.appendingPathComponent(file))
        }
        var discovery = PlaylistDiscovery()
        discovery.exclusion = Exclusion(["extras/", "extras.m3u8/", "trailers", "*.bak.m3u8", ".hidden*"])
        let result = discovery.discover([root.path])
        let found = result.packages.flatMap(\.media).map { String($0.path.dropFirst(root.path.count + 1)) }.sorted()
        #expect(found == ["t/extras.m3u8", "t/v.m3u8"])
        #expect(result.unusedExclusions == ["extras.m3u8/"], "a folders-only pattern fits no file; the others fit something")
    }
}
