import ArgumentParser
import Testing

@testable import skdpack

/// `apply`'s own argument parser against swift-argument-parser: the same command for every option it takes,
/// and nothing taken that it is not sure of.
@Suite("apply's fast argument parser")
struct ApplyFastPathTests {
    /// Every option and flag of `apply`, with and without values, in several orders.
    static let understood: [[String]] = [
        ["--template", "content-id", "a.m3u8"],
        ["--template", "skd://lic/{x}", "--match", "(?<x>.*)", "a.m3u8", "b/"],
        [
            "--template", "t.yaml", "--var", "a=1", "--var", "b=x=y", "--catalog", "c.csv", "--path-pattern", "(?<t>[^/]+)/",
            "--in-place", "--lock-wait", "2.5", "--report", "r.json", "--report", "r.xml", "lib",
        ],
        [
            "--template", "t", "--output", "out", "--jobs", "3", "--shard", "1/4", "--no-progress", "--follow-symlinks",
            "--assume-encrypted", "--session-keys", "--allow-shared-content-id", "--validate", "x", "y",
        ],
        ["--template", "t", "--check", "--max-line-length", "64K", "--max-playlist-size", "2G", "--max-segments", "10", "-"],
        ["--template", "t", "--diff", "--max-line-length", "4096", "x"],
        ["--template", "cpix", "--cpix", "a.xml", "--cpix", "keys/", "--max-init-size", "1M", "x"],
        ["--template", "key-id", "--kid-from", "media", "x"],
        ["--template", "t", "--disable", "HLS-tab-character", "--disable", "HLS-whitespace", "x"],
        ["x", "--template", "t", "y"],
        ["--template", "t"],
    ]

    @Test("the same settings as ArgumentParser's parse", arguments: understood)
    func sameSettings(_ line: [String]) throws {
        let fast = try #require(ApplyFastPath.settings(["apply"] + line))
        #expect(fast == ApplySettings(try ApplyCommand.parse(line)))
    }

    /// Lines the fast path leaves to ArgumentParser: help, what it does not know, what ArgumentParser
    /// refuses or may read otherwise.
    static let declined: [[String]] = [
        ["--help"], ["-h"], ["--version"], ["--template=t", "x"], ["--template", "t", "--jobs", "two", "x"],
        ["--template", "t", "--check", "--check", "x"], ["--template", "t", "--output", "-x"], ["--template", "t", "--bogus"],
        ["x"], ["--template", "t", "--max-playlist-size", "12Q"], ["--template", "t", "--", "x"], ["--template"],
        ["--template", "a", "--template", "b"], ["--template", "t", "-x"], ["--generate-completion-script", "bash"],
    ]

    @Test("anything else is left to ArgumentParser", arguments: declined)
    func declines(_ line: [String]) {
        #expect(ApplyFastPath.settings(["apply"] + line) == nil)
        #expect(ApplyFastPath.settings(["validate"] + line) == nil)
    }

    @Test("every option apply's help lists is one the fast path knows (a new one must be added there)")
    func everyOption() throws {
        let help = ApplyCommand.helpMessage(columns: 1000)
        let names = Set(
            help.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\n" || $0 == "[" || $0 == "]" })
                .filter { $0.hasPrefix("--") }.map { String($0) }
        )
        .subtracting(["--help", "--version"])
        #expect(names.count >= 19, "\(names)")
        for name in names {
            // A value that suits every option that takes one, and a flag takes none.
            let withValue = ApplyFastPath.settings(["apply", "--template", "t", name, "7", "x"])
            let alone = ApplyFastPath.settings(["apply", "--template", "t", name, "x"])
            #expect(name == "--template" || withValue != nil || alone != nil, "\(name) is not known to ApplyFastPath")
        }
    }
}
