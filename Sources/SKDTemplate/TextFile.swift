import Glibc
import SKDBytes

/// Reads small text files (templates, catalogues) whole, with the operating system's reason on failure.
public enum TextFile {
    public struct ReadError: Error, Sendable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// The bytes of the file at `path`, decoded as UTF-8 (invalid sequences become U+FFFD).
    public static func read(_ path: String) throws(ReadError) -> String {
        String(decoding: try bytes(path), as: UTF8.self)
    }

    /// The 1-based line of the first byte of `bytes` that is not UTF-8, or nil when they all are.
    public static func firstLineNotUTF8(_ bytes: [UInt8]) -> Int? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var line = 1
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): if scalar == "\n" { line += 1 }
            case .emptyInput: return nil
            case .error: return line
            }
        }
    }

    /// The bytes of the file at `path`, at most `limit` of them (more is an error, not a cut).
    public static func bytes(_ path: String, limit: Int = .max) throws(ReadError) -> [UInt8] {
        switch SystemCall.readAll(path, limit: limit) {
        case .success(let bytes): return bytes
        case .failure(.system(let code)): throw ReadError(path: path, reason: String(cString: strerror(code)))
        case .failure(.tooLarge): throw ReadError(path: path, reason: "too large (over \(limit) bytes)")
        }
    }
}
