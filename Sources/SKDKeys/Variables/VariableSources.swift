import Glibc
import SKDBytes
import SKDFiles
import SKDTemplate
import Synchronization

/// Where template variables come from, and which wins when several give the same name.
///
/// Highest first: `--var`, `--match` groups (from the key's existing URI), `--path-pattern` groups (from
/// the playlist's path), the catalogue row of the title, the built-ins (`playlist`, `playlist_stem`,
/// `title_dir`, `key_index`, `kid`, `old_uri`), and last the template's own defaults. The more specific
/// and the more explicit a source, the higher it stands: what a user typed beats what a file says, and a
/// value taken from the very key being rewritten beats one taken from its playlist.
public struct VariableSources: Sendable {
    /// The variables every playlist and key has without any source given: `playlist`, `playlist_stem`,
    /// `title_dir`, `key_index`, `kid` (where the key period has another system's KEYID), `old_uri`.
    public static let builtInNames: [String] = ["playlist", "playlist_stem", "title_dir", "key_index", "kid", "old_uri"]

    /// `--var NAME=VALUE`, in the order given (a later one wins).
    public var commandLine: [(name: String, value: String)]
    public var catalog: Catalog?
    /// `--path-pattern`: named groups taken from each playlist's path.
    public var pathPattern: NamedPattern?
    /// `--match`: named groups taken from each existing FairPlay key URI.
    public var match: NamedPattern?
    /// How messages name the sources above.
    public var names: SettingNames
    /// The names of the values of ``commandLine`` read from files (`--var-file`): secret whatever the template
    /// says (files are where secrets are kept), and named as the file's setting in messages.
    public var fromFiles: Set<String> = []

    /// How messages name where the value of `name` given for the run came from (`--var` or `--var-file`).
    public func givenSource(of name: String) -> String { names[.given(name, fromFiles: fromFiles)] }

    public init(
        commandLine: [(name: String, value: String)] = [], catalog: Catalog? = nil, pathPattern: NamedPattern? = nil,
        match: NamedPattern? = nil, names: SettingNames = SettingNames()
    ) {
        self.commandLine = commandLine
        self.catalog = catalog
        self.pathPattern = pathPattern
        self.match = match
        self.names = names
    }

    /// Where a variable's value may come from, strongest first.
    public enum Source: Sendable, Equatable {
        /// `--var`.
        case given
        /// Key truth (`--cpix`, `--kid-from media`), for the names it gives (``KeyTruth/variableNames``).
        case truth
        /// A `--match` group of the key's old URI.
        case match
        case keyIndex
        case kid
        case oldURI
        /// The playlist's values: its `--path-pattern` groups, its catalogue row, its built-ins.
        case playlist
    }

    /// The sources variable `name` may take its value from, strongest first, the order above: the one
    /// statement of it, which every renderer of key URIs follows. `keyTruth`: key truth is given.
    public func sources(of name: String, keyTruth: Bool) -> [Source] {
        if commandLine.contains(where: { $0.name == name }) { return [.given] }
        var sources: [Source] = []
        if keyTruth, KeyTruth.variableNames.contains(name) { sources.append(.truth) }
        if match?.groupNames.contains(name) == true { sources.append(.match) }
        switch name {
        case "key_index": sources.append(.keyIndex)
        case "kid": sources.append(.kid)
        case "old_uri": sources.append(.oldURI)
        default: break
        }
        sources.append(.playlist)
        return sources
    }

    /// The values for one playlist, before any key-specific source (`--match`, `key_index`, `kid`, `old_uri`).
    public func playlistValues(for playlist: PlaylistIdentity) -> [String: TemplateValue] {
        var values: [String: TemplateValue] = [:]
        values["playlist"] = TemplateValue(playlist.fileName, source: "built-in playlist")
        values["playlist_stem"] = TemplateValue(playlist.stem, source: "built-in playlist_stem")
        values["title_dir"] = TemplateValue(playlist.titleDirectory, source: "built-in title_dir")
        if let row = catalog?.row(for: playlist) {
            for (name, value) in row.values { values[name] = TemplateValue(value, source: row.source) }
        }
        if let pathPattern, let groups = pathPattern.groups(in: playlist.path) {
            for (name, value) in groups {
                values[name] = TemplateValue(value, source: "\(names[.pathPattern]) on \(playlist.path)")
            }
        }
        return values
    }

    /// How messages name the built-ins a key gives.
    package static let keyIndexSource = "built-in key_index"
    package static let kidSource = "built-in kid (KEYID of the key period)"
    package static let oldURISource = "built-in old_uri"

    /// The values for one key: the playlist's, the key's built-ins, `--match` groups of its old URI, and
    /// `--var` over all.
    public func keyValues(
        playlist: [String: TemplateValue], keyIndex: Int, kid: String?, oldURI: String?, line: Int
    ) -> [String: TemplateValue] {
        let groups = oldURI.flatMap { match?.groups(in: $0) } ?? [:]
        let lookup = keyLookup(playlist: playlist, keyIndex: keyIndex, kid: kid, oldURI: oldURI, matchGroups: groups, line: line)
        var values = playlist
        for name in ["key_index", "kid", "old_uri"] + groups.keys + commandLine.map(\.name) { values[name] = lookup(name) }
        return values
    }

    /// The same values as a lookup, for rendering: each is made only if the template asks for it.
    /// `matchGroups` are the `--match` groups of `oldURI`, matched once by the caller.
    public func keyLookup(
        playlist: [String: TemplateValue], keyIndex: Int, kid: String?, oldURI: String?, matchGroups: [String: String],
        line: Int
    ) -> (String) -> TemplateValue? {
        return { name in
            for source in self.sources(of: name, keyTruth: false) {
                switch source {
                case .given:
                    return TemplateValue(self.commandLine.last { $0.name == name }!.value, source: self.givenSource(of: name))
                // The key's line is where any finding about the value is reported, so the source need not say it.
                case .match where matchGroups[name] != nil: return TemplateValue(matchGroups[name]!, source: self.names[.match])
                case .keyIndex: return TemplateValue(String(keyIndex), source: Self.keyIndexSource)
                case .kid where kid != nil: return TemplateValue(kid!, source: Self.kidSource)
                case .oldURI where oldURI != nil: return TemplateValue(oldURI!, source: Self.oldURISource)
                case .playlist where playlist[name] != nil: return playlist[name]
                default: continue
                }
            }
            return nil
        }
    }
}

/// A regular expression with named groups, whose matches become variables.
///
/// Matched by ``ByteRegex`` where it can (ASCII text, the common syntax), by Swift's `Regex` otherwise;
/// Swift's is compiled only when first needed, as compiling it costs more than a whole small playlist.
public final class NamedPattern: Sendable {
    public let text: String
    /// The pattern for the byte matcher, when it can run it.
    private let fast: ByteRegex?
    /// Swift's `Regex`, compiled once, when first needed. (A compiled `Regex` is never mutated; the lock is
    /// for the first use, which concurrent jobs may race to.)
    private let swift: Mutex<SwiftRegex?>
    public let groupNames: [String]
    /// The byte matcher's named groups as (capture index, name), in capture order: walked at every match.
    private let namedCaptures: [(index: Int, name: String)]

    public init(_ text: String) throws {
        self.text = text
        self.fast = ByteRegex.compile(text)
        if let fast {
            namedCaptures = fast.groupNames
            groupNames = namedCaptures.map(\.name)
            swift = Mutex(nil)
        } else {
            namedCaptures = []
            // Compiled now, so that a pattern Swift's Regex rejects is an error here, with its reason.
            swift = Mutex(SwiftRegex(try Regex(text).matchingSemantics(.unicodeScalar)))
            groupNames = Self.namedGroups(in: text)
        }
    }

    /// Swift's `Regex` for the pattern, compiled on first use.
    private func swiftRegex() -> Regex<AnyRegexOutput>? {
        swift.withLock { compiled in
            if compiled == nil { compiled = (try? Regex(text).matchingSemantics(.unicodeScalar)).map(SwiftRegex.init) }
            return compiled?.regex
        }
    }

    /// The named groups of the first match in `text` (searching, not anchored), or `nil` if none.
    public func groups(in text: String) -> [String: String]? {
        if fast != nil {
            // Matched over the string's own bytes where it has them contiguously (a native string does),
            // without a copy.
            // nil where the byte matcher gave up; then Swift's Regex says.
            let matched = { (bytes: UnsafeBufferPointer<UInt8>) -> [String: String]?? in
                let captures: [Range<Int>?]
                switch self.byteCaptures(in: bytes) {
                case .found(let found): captures = found
                case .noMatch: return .some(nil)
                case .gaveUp: return nil
                }
                var groups: [String: String] = [:]
                groups.reserveCapacity(self.namedCaptures.count)
                for (index, name) in self.namedCaptures {
                    if let range = captures[index] { groups[name] = String(decoding: bytes[range], as: UTF8.self) }
                }
                return groups
            }
            var text = text
            if let result = text.withUTF8(matched) { return result }
        }
        return swiftRegexGroups(in: text)
    }

    /// The capture index of group `name` in ``byteCaptures(in:)``, or `nil` when the pattern has no such
    /// group or the byte matcher cannot run it.
    package func byteCaptureIndex(of name: String) -> Int? {
        namedCaptures.first { $0.name == name }?.index
    }

    /// The first match in `bytes` by the byte matcher: each group's byte range by capture index (`nil` for a
    /// group that took no part), no match, or `.gaveUp` when the byte matcher cannot say (it cannot run the
    /// pattern, the text is not ASCII, or the match took too many steps), and only ``groups(in:)`` can.
    func byteCaptures(in bytes: UnsafeBufferPointer<UInt8>) -> ByteRegex.Match {
        var scratch = ByteRegex.Scratch()
        return byteCaptures(in: bytes, scratch: &scratch)
    }

    /// The same with the caller's working memory (``ByteRegex/Scratch``), kept from one match to the next.
    package func byteCaptures(in bytes: UnsafeBufferPointer<UInt8>, scratch: inout ByteRegex.Scratch) -> ByteRegex.Match {
        guard let fast, Bytes.isASCII(bytes) else { return .gaveUp }
        return fast.firstMatch(in: bytes, scratch: &scratch)
    }

    /// The same, always with Swift's `Regex` (the reference the byte matcher is tested against).
    func swiftRegexGroups(in text: String) -> [String: String]? {
        guard let regex = swiftRegex(), let match = try? regex.firstMatch(in: text) else { return nil }
        var groups: [String: String] = [:]
        for capture in match.output {
            if let name = capture.name, let substring = capture.substring { groups[name] = String(substring) }
        }
        return groups
    }

    private static func namedGroups(in pattern: String) -> [String] {
        var names: [String] = []
        var rest = Substring(pattern)
        while let open = rest.firstRange(of: "(?<") {
            let after = rest[open.upperBound...]
            guard let close = after.firstIndex(of: ">") else { break }
            let name = after[..<close]
            if !name.isEmpty, name.first != "=", name.first != "!" { names.append(String(name)) }
            rest = after[close...]
        }
        return names
    }
}
