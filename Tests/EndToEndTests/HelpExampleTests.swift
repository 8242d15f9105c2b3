import Foundation
import SKDTestSupport
import Testing

/// The examples of every command's help, as a newcomer runs them from a fresh clone: each names files
/// that exist, and each runs without a usage error (exit 2) or a crash. Examples that read what an
/// earlier step writes (reports to merge) or a URL are only checked for the files they name.
@Suite("help examples")
struct HelpExampleTests {
    static let commands = [
        [], ["apply"], ["validate"], ["render"], ["resolve"], ["templates"], ["rules"], ["cat"], ["inspect"], ["report"],
        ["report", "schema"], ["report", "merge"], ["cpix"], ["cpix", "show"],
    ]

    /// The examples of `command`'s help, each a command line with its `\\` continuations joined.
    static func examples(_ command: [String]) throws -> [String] {
        let help = try SKDPackRunner.run(["help"] + command).stdoutText
        guard let start = help.range(of: "Examples:\n") else { return [] }
        var lines: [String] = []
        for line in help[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            guard !line.isEmpty else { break }
            let text = line.trimmingCharacters(in: .whitespaces)
            if let last = lines.last, last.hasSuffix("\\") {
                lines[lines.count - 1] = String(last.dropLast()) + text
            } else {
                lines.append(text)
            }
        }
        return lines
    }

    @Test("no example is cut by the help's line wrapping (a newcomer copies them as printed)", arguments: commands)
    func examplesAreWhole(_ command: [String]) throws {
        for example in try Self.examples(command) {
            let first = example.split(separator: " ").first.map(String.init) ?? ""
            #expect(["skdpack", "curl", "xmllint"].contains(first), "\(command): a wrapped line: \(example)")
        }
    }

    @Test("every file an example names is in the repository", arguments: commands)
    func namedFilesExist(_ command: [String]) throws {
        for example in try Self.examples(command) {
            for match in example.matches(of: /(?:examples|templates)\/[^\s'"|>)]*/) {
                let path = PackageLocation.root.appendingPathComponent(String(match.output)).path
                #expect(FileManager.default.fileExists(atPath: path), "\(command): \(example) names \(match.output)")
            }
        }
    }

    @Test("every example that stands alone runs from the repository without a usage error", arguments: commands)
    func examplesRun(_ command: [String]) throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("skdpack-help-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: output) }
        for example in try Self.examples(command) where example.hasPrefix("skdpack ") && !example.contains("shard-*") {
            // The shell runs it as written, from the repository, with the built binary first on the PATH;
            // what an example writes goes to a scratch folder.
            let line = example.replacingOccurrences(of: "--output /tmp/skdpack-out", with: "--output \(output)/")
                .replacingOccurrences(of: "> ", with: "> \(output)/")
            let run = try ShellRunner.run(line, in: PackageLocation.root)
            #expect(run.status != 2 && run.status < 128, "\(line): exit \(run.status): \(run.stderr)")
        }
    }
}

/// A command line run by `/bin/sh` with the built `skdpack` first on the PATH.
enum ShellRunner {
    static func run(_ line: String, in directory: URL) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", line + " > /dev/null"]
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = SKDPackRunner.executable.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
