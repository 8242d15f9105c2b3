import Foundation
import SKDTestSupport
import Testing

/// The first things a user meets (issue: the small things): what a mistyped command line, a template file
/// with several mistakes, a host not allowed, an init segment, a missing catalogue and a CPIX document with
/// a DTD answer, by the built binary.
@Suite("first contact: messages a newcomer meets")
struct FirstContactTests {
    /// The commands and, for each, its long options, as the binary describes itself.
    static func commands() throws -> [(path: [String], options: [String])] {
        let dump = try SKDPackRunner.run(["--experimental-dump-help"])
        let json = try #require(try JSONSerialization.jsonObject(with: dump.stdout) as? [String: Any])
        var found: [(path: [String], options: [String])] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            let options = (command["arguments"] as? [[String: Any]] ?? []).filter { ($0["kind"] as? String) != "positional" }
                .flatMap { ($0["names"] as? [[String: Any]] ?? []).filter { ($0["kind"] as? String) == "long" } }
                .compactMap { $0["name"] as? String }.map { "--" + $0 }
            found.append((path, options))
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                if let name = sub["commandName"] as? String, name != "help" { walk(sub, path + [name]) }
            }
        }
        walk(try #require(json["command"] as? [String: Any]), [])
        return found
    }

    @Test("a command with a letter dropped is named as not a command, with the one meant")
    func misspeltCommand() throws {
        for (path, _) in try Self.commands() where !path.isEmpty {
            let name = path.last!
            guard name.count > 3 else { continue }
            var typo = name
            typo.remove(at: typo.index(typo.startIndex, offsetBy: name.count / 2))
            let result = try SKDPackRunner.run(Array(path.dropLast()) + [typo, "x"])
            #expect(result.status == 2)
            let parent = (["skdpack"] + path.dropLast()).joined(separator: " ")
            #expect(result.stderr.hasPrefix("Error: '\(typo)' is not a command of \(parent); did you mean '\(name)'?"), "\(result.stderr)")
        }
        // The newcomer's: `skdpack aply --template …` was "Unknown option '--template'".
        let aply = try SKDPackRunner.run(["aply", "--template", "content-id", "examples/library"])
        #expect(aply.stderr.hasPrefix("Error: 'aply' is not a command of skdpack; did you mean 'apply'?"))
        #expect(!aply.stderr.contains("Unknown option"))
    }

    @Test("every option of every command, a letter dropped: named as unknown, with the one meant")
    func misspeltOption() throws {
        for (path, options) in try Self.commands() where !path.isEmpty {
            for option in options where option.count > 5 {
                var typo = option
                typo.removeLast()
                // Another option may be as near; the one suggested is one edit from the typo.
                let result = try SKDPackRunner.run(path + [typo, "x"])
                #expect(result.status == 2, "\(path) \(typo)")
                let prefix = "Error: \((["skdpack"] + path).joined(separator: " ")) has no option '\(typo)'; did you mean '"
                #expect(result.stderr.hasPrefix(prefix), "\(path) \(typo): \(result.stderr)")
                let suggested = result.stderr.dropFirst(prefix.count).prefix { $0 != "'" }
                #expect(options.contains(String(suggested)) && suggested.hasPrefix(typo), "\(typo) → \(suggested)")
            }
        }
    }

    @Test("a value that starts with '-' is said not to be one, with what the option takes")
    func negativeValue() throws {
        let result = try SKDPackRunner.run(["validate", "--jobs", "-3", "examples/library"])
        #expect(result.status == 2)
        #expect(
            result.stderr.hasPrefix("Error: '-3' is not a value of --jobs, which takes <N>: process this many packages at once: 1 or more"))
        #expect(!result.stderr.contains("Missing value"))
    }

    @Test("templates check lists every problem of a file, each at its line and column, and exits 1")
    func templateCheckListsAll() throws {
        let scratch = try Scratch(folder: "t")
        defer { scratch.remove() }
        try scratch.write(
            "t/t.yaml",
            "name: t\nuri: \"skd://{content_id}\"\nmethod: AES-999\nvariables:\n  content_id:\n    pattern: \"[a-z\"\nextra: 1\n")
        let result = try SKDPackRunner.run(["templates", "check", scratch.path("t/t.yaml")])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n").map { $0.split(separator: ":").dropFirst().prefix(2).joined(separator: ":") }
        #expect(lines == ["3:9", "6:5", "7:1"], "\(result.stderr)")
    }
}
