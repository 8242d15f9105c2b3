import Glibc
import SKDBytes

/// The `/`-separated components of a path, as `split(separator: "/")` gives them (empty ones dropped), read
/// on the path's bytes when it is ASCII. Splitting a `String` breaks it into Characters, grapheme by
/// grapheme: tens of thousands of instructions a path, at several paths of every playlist of a library
/// (its file name, its title's folder, its temporary file's name, the normalised paths discovery compares).
public enum PathComponents {
    public static func of(_ path: String) -> [String] {
        let ascii: [String]? =
            path.utf8.withContiguousStorageIfAvailable { bytes -> [String]? in
                guard Bytes.isASCII(bytes) else { return nil }
                var components: [String] = []
                var start = 0
                for index in 0...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: "/") {
                    if index > start {
                        components.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
                    }
                    start = index + 1
                }
                return components
            } ?? nil
        return ascii ?? path.split(separator: "/").map(String.init)
    }

    /// `a/./b/../c` as `a/c`, without touching the file system.
    public static func normalized(_ path: String) -> String {
        var parts: [String] = []
        for part in of(path) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." { parts.removeLast() } else { parts.append(part) }
        }
        // Joined by hand: `joined(separator:)` is not specialised here, and its first call in a process
        // looks up conformances among every one in the binary (~0.05 ms of each run's start).
        var joined = ""
        for (index, part) in parts.enumerated() {
            if index > 0 { joined += "/" }
            joined += part
        }
        return path.hasPrefix("/") ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    /// Whether `path` is `directory` or lies under it, the two resolved as the file system resolves them
    /// (symbolic links, `.`, `..`), `path` possibly not there yet.
    public static func isSameOrInside(_ path: String, _ directory: String) -> Bool {
        let inner = resolved(path)
        let outer = resolved(directory)
        return inner.count >= outer.count && Array(inner.prefix(outer.count)) == outer
    }

    /// The components of the absolute path `path` names: its longest existing part through `realpath`, the
    /// rest as written (`..` applied).
    private static func resolved(_ path: String) -> [String] {
        var pending: [String] = []
        var existing = path.isEmpty ? "." : path
        while true {
            if let real = realpath(existing, nil) {
                defer { free(real) }
                var components = of(String(cString: real))
                for part in pending.reversed() {
                    if part == ".." { _ = components.popLast() } else if part != "." { components.append(part) }
                }
                return components
            }
            let parts = of(existing)
            guard let last = parts.last else { return of(path) }
            pending.append(last)
            existing = (existing.hasPrefix("/") ? "/" : "") + parts.dropLast().joined(separator: "/")
            if existing.isEmpty { existing = "." }
        }
    }
}
