import ArgumentParser
import Testing

@testable import skdpack

/// `apply`'s option table against swift-argument-parser's declarations: the same names, kinds and settings
/// for every option, read fast from a plain command line and read again from one ArgumentParser checked;
/// and nothing taken fast that the fast parser is not sure of.
@Suite("apply's option table and its fast parser")
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
        #expect(fast == Self.settings(try ApplyCommand.parse(line)))
        #expect(ApplyFastPath.settings(checked: line[...]) == fast)
    }

    /// Lines ArgumentParser takes that the fast parser leaves to it, read from the table once it has.
    static let checkedOnly: [[String]] = [
        ["--template=t", "x"], ["--template", "t", "--", "-x", "y"], ["--template", "a", "--template", "b", "x"],
        ["--template", "t", "--jobs=3", "--var=a=b", "--check", "x"], ["--template", "t", "--output", "o", "--output", "p", "x"],
    ]

    @Test("what ArgumentParser takes besides, read from the table the same", arguments: checkedOnly)
    func checkedSettings(_ line: [String]) throws {
        let checked = try #require(ApplyFastPath.settings(checked: line[...]))
        #expect(checked == Self.settings(try ApplyCommand.parse(line)))
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

    /// What ArgumentParser parsed, as the settings the table should read from the same words: the test's
    /// own reading of the declarations, against which the table is held.
    static func settings(_ command: ApplyCommand) -> ApplySettings {
        var settings = ApplySettings(template: command.templateOptions.template)
        settings.request.values = command.templateOptions.values
        (settings.paths, settings.inPlace, settings.output, settings.check, settings.diff) =
            (command.paths, command.inPlace, command.output, command.check, command.diff)
        (settings.request.assumeEncrypted, settings.request.sessionKeys, settings.allowSharedContentID) =
            (command.assumeEncrypted, command.sessionKeys, command.allowSharedContentID)
        settings.input = input(followSymlinks: command.followSymlinks, root: command.root, command.library, command.limits)
        (settings.reports, settings.request.cpix, settings.request.kidFrom, settings.request.maximumInitSize) =
            (command.report, command.cpix, command.kidFrom, command.maxInitSize.bytes)
        (settings.request.ignoredFindings, settings.request.titleLockWait, settings.request.validatesWrites) =
            (command.disabledRules, command.lockWait, command.validate)
        return settings
    }

    /// What both commands' declarations say of their inputs, as ``InputSettings``.
    static func input(followSymlinks: Bool, root: String?, _ library: LibraryOptions, _ limits: ReaderLimitOptions) -> InputSettings {
        InputSettings(
            followSymlinks: followSymlinks, root: root, jobs: library.jobs, shard: library.shard, noProgress: library.noProgress,
            maxLineLength: limits.maxLineLength.bytes, maxPlaylistSize: limits.maxPlaylistSize.bytes, maxSegments: limits.maxSegments)
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
