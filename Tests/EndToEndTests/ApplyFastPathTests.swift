import ArgumentParser
import Testing

@testable import skdpack

/// `apply`'s option table against swift-argument-parser's declarations: the same names, kinds and settings
/// for every option, read fast from a plain command line and mapped from ArgumentParser's parse of it
/// (`settings`); and nothing taken fast that the fast parser is not sure of.
@Suite("apply's option table and its fast parser")
struct ApplyFastPathTests {
    /// Every option and flag of `apply`, with and without values, in several orders.
    static let understood: [[String]] = [
        ["--template", "content-id", "a.m3u8"],
        ["--template", "skd://lic/{x}", "--match", "(?<x>.*)", "a.m3u8", "b/"],
        [
            "--template", "t.yaml", "--var", "a=1", "--var", "b=x=y", "--var-file", "c=f.txt", "--catalog", "c.csv", "--path-pattern",
            "(?<t>[^/]+)/",
            "--in-place", "--lock-wait", "2.5", "--report", "r.json", "--report", "r.xml", "lib",
        ],
        [
            "--template", "t", "--output", "out", "--jobs", "3", "--shard", "1/4", "--no-progress", "--follow-symlinks", "--root", "/srv",
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
        #expect(try fast == ApplyCommand.parse(line).settings)
    }

    /// Lines ArgumentParser takes that the fast parser leaves to it, each with a plain line that says the same.
    static let checkedOnly: [([String], [String])] = [
        (["--template=t", "x"], ["--template", "t", "x"]),
        (["--template", "a", "--template", "b", "x"], ["--template", "b", "x"]),
        (
            ["--template", "t", "--jobs=3", "--var=a=b", "--check", "x"],
            ["--template", "t", "--jobs", "3", "--var", "a=b", "--check", "x"]
        ),
        (["--template", "t", "--output", "o", "--output", "p", "x"], ["--template", "t", "--output", "p", "x"]),
        (["--template", "t", "--", "-x", "y"], ["--template", "t", "y"]),
    ]

    @Test("what ArgumentParser takes besides, mapped as the table reads a plain line that says the same", arguments: checkedOnly)
    func checkedSettings(_ line: [String], _ plain: [String]) throws {
        var parsed = try ApplyCommand.parse(line).settings
        if line.contains("--") {
            #expect(parsed.paths == ["-x", "y"])
            parsed.paths = ["y"]
        }
        #expect(parsed == ApplyFastPath.settings(["apply"] + plain))
    }

    @Test("every option of the table has ArgumentParser's kind: a flag takes no value, the others one")
    func sameKinds() throws {
        for option in ApplyFastPath.table.options {
            let base = option.name == "--template" ? [] : ["--template", "t"]
            switch option.kind {
            case .flag:
                #expect(throws: Never.self, "\(option.name)") { try ApplyCommand.parse(base + [option.name, "x"]) }
                #expect(throws: (any Error).self, "\(option.name)") { try ApplyCommand.parse(base + ["\(option.name)=1", "x"]) }
            case .value, .repeated:
                #expect(throws: (any Error).self, "\(option.name)") { try ApplyCommand.parse(base + [option.name]) }
            }
            if option.kind == .repeated {
                #expect(throws: Never.self, "\(option.name)") { try ApplyCommand.parse(base + [option.name, "7", option.name, "8", "x"]) }
            }
        }
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
            #expect(ApplyFastPath.table.option(name) != nil, "\(name) is not in ApplyFastPath.table")
        }
        #expect(Set(ApplyFastPath.table.options.map(\.name)) == names, "the table and apply's help name different options")
    }
}
