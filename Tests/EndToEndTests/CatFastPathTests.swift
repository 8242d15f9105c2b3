import HLS
import Testing

@testable import skdpack

/// `skdpack cat PATH` read without swift-argument-parser: only that exact shape, with the limits
/// ArgumentParser would have given.
@Suite("cat's plain command line")
struct CatFastPathTests {
    @Test("cat with a path alone, or -, is taken")
    func taken() {
        #expect(CatCommand.plainPath(["cat", "a.m3u8"]) == "a.m3u8")
        #expect(CatCommand.plainPath(["cat", "-"]) == "-")
        #expect(CatCommand.plainPath(["cat", "dir/with space.m3u8"]) == "dir/with space.m3u8")
    }

    @Test(
        "anything else is left to ArgumentParser",
        arguments: [
            ["cat"], ["cat", "--help"], ["cat", "-h"], ["cat", "--max-segments", "3", "a.m3u8"], ["cat", "a.m3u8", "b.m3u8"],
            ["cat", "--version"], ["cta", "a.m3u8"], ["validate", "a.m3u8"], ["cat", "--", "a.m3u8"],
        ])
    func declined(_ line: [String]) {
        #expect(CatCommand.plainPath(line) == nil)
    }

    @Test("the limits of a plain cat are those ArgumentParser's defaults give")
    func sameLimits() throws {
        let parsed = try CatCommand.parse(["a.m3u8"]).limits.applied(to: ReaderOptions())
        let plain = ReaderOptions()
        #expect(parsed.maximumLineLength == plain.maximumLineLength)
        #expect(parsed.maximumPlaylistSize == plain.maximumPlaylistSize)
        #expect(parsed.maximumSegmentCount == plain.maximumSegmentCount)
        #expect(parsed.parsesEveryTag == plain.parsesEveryTag)
    }
}
