import ArgumentParser
import SKDPack
import Testing

@testable import skdpack

/// `validate`'s option table against swift-argument-parser's declarations, as `apply`'s is
/// (``ApplyFastPathTests``): the same names, kinds and settings for every option, read fast from a plain
/// command line and read again from one ArgumentParser checked; and nothing taken fast that the fast parser
/// is not sure of.
@Suite("validate's option table and its fast parser")
struct ValidateFastPathTests {
    /// Every option and flag of `validate`, with and without values, in several orders.
    static let understood: [[String]] = [
        ["a.m3u8"],
        ["lib", "b/", "-"],
        [
            "--format", "json", "--report", "r.xml", "--report", "r.html", "--disable", "FPS-iv", "--disable", "HLS-whitespace",
            "--warnings-as-errors", "--max-uri-length", "2048", "lib",
        ],
        [
            "--template", "entitlement", "--var", "a=1", "--var", "b=x=y", "--var-file", "t=tok.txt", "--catalog", "c.csv",
            "--path-pattern", "(?<t>[^/]+)/", "--allow-host", "a.example", "--allow-host", "*.b.example", "x",
        ],
        ["--follow-symlinks", "--root", "/srv/www", "--jobs", "3", "--shard", "1/4", "--no-progress", "x", "y"],
        ["--media", "--segments", "--cpix", "a.xml", "--cpix", "keys/", "--max-init-size", "1M", "x"],
        ["--max-line-length", "64K", "--max-playlist-size", "2G", "--max-segments", "10", "--format", "human", "x"],
        ["x", "--format", "sarif", "y"],
    ]

    @Test("the same settings as ArgumentParser's parse", arguments: understood)
    func sameSettings(_ line: [String]) throws {
        let fast = try #require(ValidateFastPath.settings(["validate"] + line))
        #expect(try fast == ValidateCommand.parse(line).settings)
    }

    /// Lines ArgumentParser takes that the fast parser leaves to it, each with a plain line that says the same.
    static let checkedOnly: [([String], [String])] = [
        (["--format=json", "x"], ["--format", "json", "x"]),
        (["--template", "a", "--template", "b", "x"], ["--template", "b", "x"]),
        (["--jobs=3", "--var=a=b", "x"], ["--jobs", "3", "--var", "a=b", "x"]),
        (["--format", "xml", "--format", "junit", "x"], ["--format", "junit", "x"]),
        (["--", "-x", "y"], ["y"]),
    ]

    @Test("what ArgumentParser takes besides, mapped as the table reads a plain line that says the same", arguments: checkedOnly)
    func checkedSettings(_ line: [String], _ plain: [String]) throws {
        var parsed = try ValidateCommand.parse(line).settings
        if line.contains("--") {
            #expect(parsed.paths == ["-x", "y"])
            parsed.paths = ["y"]
        }
        #expect(parsed == ValidateFastPath.settings(["validate"] + plain))
    }

    @Test("every option of the table has ArgumentParser's kind: a flag takes no value, the others one")
    func sameKinds() throws {
        for option in ValidateFastPath.table.options {
            switch option.kind {
            case .flag:
                #expect(throws: Never.self, "\(option.name)") { try ValidateCommand.parse([option.name, "x"]) }
                #expect(throws: (any Error).self, "\(option.name)") { try ValidateCommand.parse(["\(option.name)=1", "x"]) }
            case .value, .repeated:
                #expect(throws: (any Error).self, "\(option.name)") { try ValidateCommand.parse([option.name]) }
            }
            if option.kind == .repeated {
                #expect(throws: Never.self, "\(option.name)") { try ValidateCommand.parse([option.name, "7", option.name, "8", "x"]) }
            }
        }
    }

    /// Lines the fast path leaves to ArgumentParser: help, what it does not know, what ArgumentParser
    /// refuses or may read otherwise, a line without a path.
    static let declined: [[String]] = [
        ["--help"], ["-h"], ["--version"], ["--format=json", "x"], ["--jobs", "two", "x"], ["--media", "--media", "x"],
        ["--template", "-x"], ["--bogus", "x"], [], ["--format", "yaml", "x"], ["--max-playlist-size", "12Q", "x"],
        ["--", "x"], ["--template"], ["--template", "a", "--template", "b", "x"], ["-x"], ["--generate-completion-script", "bash"],
    ]

    @Test("anything else is left to ArgumentParser", arguments: declined)
    func declines(_ line: [String]) {
        #expect(ValidateFastPath.settings(["validate"] + line) == nil)
        #expect(ValidateFastPath.settings(["apply"] + line) == nil)
    }

    @Test("every option validate's help lists is one the fast path knows (a new one must be added there)")
    func everyOption() throws {
        let help = ValidateCommand.helpMessage(columns: 1000)
        let names = Set(
            help.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\n" || $0 == "[" || $0 == "]" })
                .filter { $0.hasPrefix("--") }
                // (An option named in another's help: "With --template:", "(implies --media)".)
                .map { String($0.prefix { $0 == "-" || $0.isLetter }) }
        )
        .subtracting(["--help", "--version"])
        #expect(names.count >= 20, "\(names)")
        for name in names {
            let withValue = ValidateFastPath.settings(["validate", name, "7", "x"])
            let alone = ValidateFastPath.settings(["validate", name, "x"])
            #expect(withValue != nil || alone != nil || name == "--format", "\(name) is not known to ValidateFastPath")
            #expect(ValidateFastPath.table.option(name) != nil, "\(name) is not in ValidateFastPath.table")
        }
        #expect(Set(ValidateFastPath.table.options.map(\.name)) == names, "the table and validate's help name different options")
    }
}
