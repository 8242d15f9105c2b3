import Glibc
import SKDBytes

/// Standard input, for commands that read a playlist from `-`.
enum StandardInput {
    /// A command's inputs, `-` replaced by the file standard input was spooled to.
    struct Inputs {
        var paths: [String]
        var spooled: String?

        /// Removes the spooled standard input.
        func close() {
            if let spooled { unlink(spooled) }
        }
    }

    /// `paths`, with `-` (alone: it cannot be mixed with other inputs, and only where `allowed` does not
    /// throw) spooled to a file.
    static func inputs(_ paths: [String], allowed: () throws -> Void = {}) throws -> Inputs {
        guard !paths.isEmpty else { throw UsageFailure("give at least one playlist, directory, or - for standard input") }
        guard let index = paths.firstIndex(of: "-") else { return Inputs(paths: paths, spooled: nil) }
        guard paths.count == 1 else { throw UsageFailure("- (standard input) cannot be mixed with other inputs") }
        try allowed()
        var inputs = Inputs(paths: paths, spooled: try spool())
        inputs.paths[index] = inputs.spooled!
        return inputs
    }

    /// Copies standard input into a temporary file and returns its path (the caller unlinks it): the
    /// engine reads files, and a file can be read twice (a package survey, the lines of an excerpt).
    static func spool() throws -> String {
        let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(directory)/skdpack-stdin.XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw UsageFailure("cannot create a temporary file for standard input") }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = SystemCall.retrying { buffer.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) } }
            guard count >= 0 else { throw UsageFailure("cannot read standard input: \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            if let code = buffer.withUnsafeBytes({ SystemCall.writeAll(fd, UnsafeRawBufferPointer(rebasing: $0[..<count])) }) {
                throw UsageFailure("cannot spool standard input: \(String(cString: strerror(code)))")
            }
        }
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
