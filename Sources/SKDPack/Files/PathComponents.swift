/// The `/`-separated components of a path, as `split(separator: "/")` gives them (empty ones dropped), read
/// on the path's bytes when it is ASCII. Splitting a `String` breaks it into Characters, grapheme by
/// grapheme: tens of thousands of instructions a path, at several paths of every playlist of a library
/// (its file name, its title's folder, its temporary file's name, the normalised paths discovery compares).
enum PathComponents {
    static func of(_ path: String) -> [String] {
        let ascii: [String]? =
            path.utf8.withContiguousStorageIfAvailable { bytes -> [String]? in
                guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
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
}
