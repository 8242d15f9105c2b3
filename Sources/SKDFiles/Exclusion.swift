import Glibc

/// What the walk of a directory leaves out: glob patterns (`*`, `?`, `[…]`, as the shell's) matched
/// against the files and folders it meets. A pattern without `/` is matched against a name, at any depth
/// (`trailers`, `*.bak.m3u8`); a pattern with `/` against the path from the directory given (`show-a/extras`,
/// `*/trailers/*`, where `*` crosses `/`; a leading `/` or `./` anchors it there too). A pattern that ends in
/// `/` fits folders only (`extras/`). A folder left out is not walked. Letter case counts, as it does on the
/// disk. The files given by name, and the playlists a master of the run lists, are not left out: the patterns
/// say what a walk finds, and a title is changed whole.
public struct Exclusion: Sendable, Equatable {
    /// The patterns as given (a leading `./` or `/` and a trailing `/` are dropped when matching, and said
    /// by ``matched``).
    public let patterns: [String]
    /// Each pattern as matched, whether it is matched against the path (else against a name), and whether it
    /// fits folders only.
    private let matched: [(text: [CChar], byPath: Bool, foldersOnly: Bool)]

    public init(_ patterns: [String] = []) {
        self.patterns = patterns
        matched = patterns.map { pattern in
            var text = Substring(pattern)
            var anchored = false
            while text.hasPrefix("./") || text.hasPrefix("/") {
                text = text.dropFirst(text.hasPrefix("/") ? 1 : 2)
                anchored = true
            }
            let foldersOnly = text.hasSuffix("/")
            while text.hasSuffix("/") { text = text.dropLast() }
            return (Array(String(text).utf8CString), anchored || text.utf8.contains(UInt8(ascii: "/")), foldersOnly)
        }
    }

    public static func == (lhs: Exclusion, rhs: Exclusion) -> Bool { lhs.patterns == rhs.patterns }

    public var isEmpty: Bool { patterns.isEmpty }

    /// The indices of the patterns that leave out the entry `name`, at `relativePath` from the directory
    /// walked: empty when none does.
    public func patterns(excluding name: String, at relativePath: String, isFolder: Bool) -> [Int] {
        matched.indices.filter { index in
            let (pattern, byPath, foldersOnly) = matched[index]
            return (isFolder || !foldersOnly) && fnmatch(pattern, byPath ? relativePath : name, 0) == 0
        }
    }

    /// What a pattern that left out nothing was most likely meant to be: without the path of the input it
    /// starts with (patterns are matched from the directory given), else the name walked one or two edits
    /// from it (a typo); `nil` when nothing is near.
    static func hint(for pattern: String, inputs: [String], names: Set<String>) -> String? {
        for input in inputs {
            let prefix = input.hasSuffix("/") ? input : input + "/"
            if pattern.hasPrefix(prefix), pattern.count > prefix.count { return String(pattern.dropFirst(prefix.count)) }
        }
        let wanted = Array(pattern.utf8)
        let near = names.map { (name: $0, distance: editDistance(wanted, Array($0.utf8))) }
            .filter { $0.distance > 0 && $0.distance <= min(2, wanted.count / 3) }
            .min { ($0.distance, $0.name) < ($1.distance, $1.name) }
        return near?.name
    }

    /// The number of one-byte insertions, deletions and replacements that make `a` into `b`.
    private static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
