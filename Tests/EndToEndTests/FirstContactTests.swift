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

    @Test("a misspelt rule or variable is named with the one meant")
    func misspeltRuleAndVariable() throws {
        let rule = try SKDPackRunner.run(["validate", "--disable", "HLS-version-to-low", "examples/library"])
        #expect(rule.status == 2)
        #expect(rule.stderr.contains("--disable HLS-version-to-low: no such rule; did you mean HLS-version-too-low?"), "\(rule.stderr)")
        let variable = try SKDPackRunner.run([
            "render", "--template", "entitlement", "--var", "entitlement_url=https://a.example.com", "--var", "content=42",
        ])
        #expect(variable.status == 2)
        #expect(
            variable.stderr.contains("--var content: the template entitlement has no variable content; did you mean content_id?"),
            "\(variable.stderr)")
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
        // A file that cannot be read is the tool's failure, not the file's: exit 2, and a shipped name says so.
        let shipped = try SKDPackRunner.run(["templates", "check", "entitlement"])
        #expect(shipped.status == 2)
        #expect(shipped.stderr.contains("entitlement is a shipped template"))
    }

    @Test("resolve with a host not allowed prints no URL, says why on standard error, and exits 1")
    func resolveRefusedHost() throws {
        let refused = try SKDPackRunner.run(["resolve", "--allow-host", "lic.example.com", "skd://other.example.com/fps?cid=1"])
        #expect(refused.status == 1)
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderr.contains("the license host other.example.com is not allowed by --allow-host (lic.example.com)"))
        let allowed = try SKDPackRunner.run(["resolve", "--allow-host", "lic.example.com", "skd://lic.example.com/fps?cid=1"])
        #expect(allowed.status == 0)
        #expect(allowed.stdoutText == "https://lic.example.com/fps?cid=1\n")
    }

    @Test(
        "inspect of an init segment: one entry per trak, its sample entries inside it",
        .enabled(if: SharedMaterial.media != nil, Comment(rawValue: SharedMaterial.skipReason)))
    func inspectTracksByTrak() throws {
        // Shaka's FairPlay title: one video trak with two sample entries, encv (cbcs) and the clear lead's avc1.
        let file = SharedMaterial.media!.appendingPathComponent("shaka-project__shaka-player__test_test_assets_init-fairplay.mp4")
        let run = try SKDPackRunner.run(["inspect", file.path])
        #expect(run.status == 0, "\(run.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        let tracks = try #require(json["tracks"] as? [[String: Any]])
        #expect(tracks.count == 1)
        #expect(tracks.first?["trackID"] as? Int == 1)
        let entries = tracks.first?["sampleEntries"] as? [[String: Any]] ?? []
        #expect(entries.map { $0["format"] as? String } == ["encv", "avc1"])
        #expect(entries.map { $0["scheme"] as? String } == ["cbcs", nil])
    }

    @Test("a catalogue that cannot be opened is named without a line, with the reason")
    func missingCatalogue() throws {
        let result = try SKDPackRunner.run(["apply", "--template", "entitlement", "--catalog", "cat.csvv", "examples/library"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("cat.csvv: error: cannot read the catalogue: No such file or directory"), "\(result.stderr)")
        #expect(!result.stderr.contains("cat.csvv:0:"))
    }

    @Test("a CPIX document with a DTD is refused as such, with why, whatever its DTD holds")
    func cpixWithDTD() throws {
        let scratch = try Scratch(folder: "c")
        defer { scratch.remove() }
        let document = #"<CPIX xmlns="urn:dashif:org:cpix" version="2.3" contentId="&cid;"><ContentKeyList/></CPIX>"#
        for doctype in [
            #"<!DOCTYPE CPIX [<!ENTITY cid "title-1">]>"#, #"<!DOCTYPE CPIX SYSTEM "cpix.dtd">"#,
            #"<!DOCTYPE CPIX [<!ENTITY cid SYSTEM "file:///etc/passwd">]>"#,
        ] {
            try scratch.write("c/keys.xml", "<?xml version=\"1.0\"?>\n\(doctype)\n\(document)\n")
            let result = try SKDPackRunner.run(["cpix", "show", scratch.path("c/keys.xml")])
            #expect(result.status != 0)
            #expect(
                result.stderr.contains("keys.xml:2: the document has a DTD (<!DOCTYPE …>), and documents with one are refused"),
                "\(result.stderr)")
            #expect(!result.stderr.contains("not well-formed"))
        }
        // The same in UTF-16, as a document from elsewhere may come.
        let utf16 = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<!DOCTYPE CPIX [<!ENTITY cid \"x\">]>\n\(document)\n"
        try (Data([0xFF, 0xFE]) + utf16.data(using: .utf16LittleEndian)!).write(to: URL(fileURLWithPath: scratch.path("c/keys16.xml")))
        let wide = try SKDPackRunner.run(["cpix", "show", scratch.path("c/keys16.xml")])
        #expect(wide.stderr.contains("keys16.xml:2: the document has a DTD"), "\(wide.stderr)")
    }

    @Test(
        "a CPIX document that is not XML, or has an end tag closing the wrong element, is named at line and column, and says what is wrong")
    func malformedCPIX() throws {
        let scratch = try Scratch(folder: "c")
        defer { scratch.remove() }
        try scratch.write(
            "c/keys.xml",
            "<?xml version=\"1.0\"?>\n<CPIX xmlns=\"urn:dashif:org:cpix\" version=\"2.3\">\n  <ContentKeyList>\n"
                + "    <ContentKey kid=\"0f1e2d3c-4b5a-4968-7766-554433221100\"/>\n</CPIX>\n")
        try scratch.write("c/notes.txt", "title,content_id\nt1,42\n")
        let cases = [
            (
                "keys.xml",
                "keys.xml:5:3: not well-formed XML: mismatched tag: this end tag does not close <ContentKeyList>, opened on line 3"
            ),
            ("notes.txt", "notes.txt:1:1: not well-formed XML: syntax error before the first element: is this an XML document?"),
            ("absent.xml", "absent.xml: cannot read: No such file or directory"),
        ]
        for (name, message) in cases {
            let result = try SKDPackRunner.run(
                ["apply", "--template", "cpix", "--cpix", scratch.path("c/\(name)"), "examples/library/legacy-title/video-360p.m3u8"],
                directory: PackageLocation.root)
            #expect(result.status == 2, "\(name)")
            #expect(result.stdout.isEmpty, "\(name)")
            #expect(result.stderr.contains(message), "\(name): \(result.stderr)")
            #expect(!result.stderr.contains(":0:"), "\(name): \(result.stderr)")
        }
    }

    @Test("a misspelt template name, a value its pattern refuses, a file name given to --output: each says what was meant")
    func templateAndOutputMistakes() throws {
        let playlist = "examples/library/legacy-title/video-360p.m3u8"
        let match = "^skd://(?<content_id>[^/?&]+)"
        let misspelt = try SKDPackRunner.run(
            ["apply", "--template", "entitlment", "--var", "entitlement_url=https://lic.example.com/fps", "--match", match, playlist],
            directory: PackageLocation.root)
        #expect(misspelt.status == 2)
        #expect(misspelt.stderr.hasSuffix("did you mean 'entitlement'?\n"), "\(misspelt.stderr)")
        let http = try SKDPackRunner.run(
            ["apply", "--template", "entitlement", "--var", "entitlement_url=http://lic.example.com/fps", "--match", match, playlist],
            directory: PackageLocation.root)
        #expect(http.status == 2)
        #expect(http.stderr.contains("does not match its pattern"), "\(http.stderr)")
        #expect(http.stderr.contains(": it should be the license (entitlement) server's https URL"), "\(http.stderr)")
        let scratch = try Scratch(folder: "o")
        defer { scratch.remove() }
        let file = scratch.path("o/migrated.m3u8")
        let output = try SKDPackRunner.run(
            [
                "apply", "--template", "entitlement", "--var", "entitlement_url=https://lic.example.com/fps", "--match", match, "--output",
                file, playlist,
            ],
            directory: PackageLocation.root)
        #expect(output.status == 2)
        #expect(output.stderr.contains("--output takes a folder"), "\(output.stderr)")
        #expect(output.stderr.contains("> \(file)"), "\(output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: file), "no folder is made in the file's name")
    }

    /// What bash offers for the last word of `words` (after `skdpack`), through the completion script the
    /// binary generates, as the shell calls it.
    static func completions(_ words: [String]) throws -> [String] {
        let script = """
            source <("$0" --generate-completion-script bash)
            COMP_WORDS=("$0" "$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
            _skdpack "$0" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let run = try SKDPackRunner.run(
            ["-c", script, SKDPackRunner.executable.path] + words, directory: PackageLocation.root,
            program: URL(fileURLWithPath: "/bin/bash"))
        return run.stdoutText.split(separator: "\n").map(String.init)
    }

    @Test("bash completions offer template names, rule ids, media, formats and report suffixes")
    func shellCompletions() throws {
        #expect(try Self.completions(["apply", "--template", "entitle"]) == ["entitlement", "entitlement-kid", "entitlement-rotation"])
        #expect(try Self.completions(["apply", "--template", "templates/key"]) == ["templates/key-id.yaml"])
        #expect(try Self.completions(["validate", "--disable", "HLS-version"]) == ["HLS-version-too-high", "HLS-version-too-low"])
        #expect(try Self.completions(["apply", "--disable", "HLS-tab"]) == ["HLS-tab-character"])
        #expect(try Self.completions(["apply", "--kid-from", ""]) == ["media"])
        #expect(try Self.completions(["validate", "--format", ""]) == ["human", "json", "xml", "junit", "sarif", "html"])
        #expect(try Self.completions(["report", "merge", "--format", ""]) == ["json", "xml", "junit", "sarif", "html"])
        #expect(try Self.completions(["apply", "--report", "out"]) == ["out.json", "out.xml", "out.junit.xml", "out.sarif", "out.html"])
    }
}
