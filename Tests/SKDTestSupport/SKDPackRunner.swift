import Foundation

/// Runs the built `skdpack` binary the way a user does: arguments, standard input, exit status.
public enum SKDPackRunner {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: Data
        public var stderr: String
        public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// `SKDPACK_BIN` if set, else the `skdpack` built beside the test bundle.
    public static let executable: URL = {
        if let override = ProcessInfo.processInfo.environment["SKDPACK_BIN"] {
            return URL(fileURLWithPath: override)
        }
        let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        return bundle.appendingPathComponent("skdpack")
    }()

    /// Runs `program` (the built skdpack unless said otherwise) with `arguments`.
    public static func run(
        _ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:],
        directory: URL? = nil, program: URL = executable
    ) throws -> Result {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        process.environment = env
        if let directory { process.currentDirectoryURL = directory }
        let output = Pipe()
        let errors = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input
        try process.run()
        // Read both pipes concurrently with the child so neither can fill up and stall it.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            outData = output.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            errData = errors.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: outData, stderr: String(decoding: errData, as: UTF8.self))
    }

    /// The output of `skdpack arguments…` run on a pseudo-terminal, as from a user's shell: script(1) gives
    /// it one. `NO_COLOR` is unset unless `environment` sets it. Arguments are single-quoted for the shell.
    public static func runOnTerminal(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
        let quoted = ([executable.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", quoted.joined(separator: " "), "/dev/null"]
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = nil
        env.merge(environment) { $1 }
        process.environment = env
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
