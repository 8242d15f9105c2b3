import SKDFiles
import Testing

/// `--shard I/N` takes a fair share of any library: titles named alike (`title-a` … `title-l`, `s01e01` …),
/// split over two, three and four shards, each shard gets some, and none more than twice its share.
@Suite("shards: a fair share whatever the titles' names")
struct ShardTests {
    static let libraries: [[String]] = [
        (0..<12).map { "title-\(Character(UnicodeScalar(UInt8(ascii: "a") + UInt8($0))))/master.m3u8" },
        (1...16).map { "s01e\($0 < 10 ? "0" : "")\($0)/master.m3u8" },
        ["clear-title/master.m3u8", "crlf-title/index.m3u8", "legacy-title/master.m3u8", "multi-drm-title/master.m3u8"]
            + (0..<8).map { "library/title-\($0)/master.m3u8" },
        // Names whose bytes have one parity (the letters of one word in every order): FNV-1a's low bit alone
        // put them all in one shard of two.
        permutations(Array("abcd")).map { "show-\(String($0))/master.m3u8" },
    ]

    static func permutations(_ letters: [Character]) -> [[Character]] {
        guard letters.count > 1 else { return [letters] }
        return letters.indices.flatMap { index in
            var rest = letters
            let first = rest.remove(at: index)
            return permutations(rest).map { [first] + $0 }
        }
    }

    @Test("every shard of 2, 3 and 4 gets a share of titles named alike", arguments: libraries.indices, [2, 3, 4])
    func fairShares(_ library: Int, count: Int) {
        let paths = Self.libraries[library]
        let sizes = (0..<count).map { index in
            paths.filter { path in
                Shard(index: index, count: count)!.contains(
                    PlaylistPackage(master: PlaylistFile(path: "/x/" + path, relativePath: path), media: [], diagnostics: []))
            }.count
        }
        #expect(sizes.reduce(0, +) == paths.count, "each title in one shard")
        #expect(sizes.allSatisfy { $0 > 0 && $0 <= 2 * paths.count / count + 1 }, "\(paths.count) titles over \(count) shards: \(sizes)")
    }
}
