import SKDTemplate

/// The key URI of a `--match` migration whose template takes each of its values from a group of the match,
/// made from the old URI's bytes: the template's literal text and the captured bytes, filtered and
/// percent-encoded, in one buffer.
///
/// A migration of a key-rotating playlist renders a URI at every key period. The general path (the
/// template's renderer asking a layered lookup for each value) makes a dictionary of the groups, a `String`
/// of each value and of the URI: about four times what matching costs. This gives the same URI (a test renders
/// both ways) and is made only for templates it renders whole: every variable a group of the match, none
/// given by `--var` (which wins over a group), none secret, none with a `pattern` to check, no
/// `strip_scheme` filter, no `allow_hosts`, and literal text that starts `skd:`. For a key it cannot render
/// (no match, a group that took no part, a value a key URI refuses, text the byte matcher leaves to Swift's
/// `Regex`) it returns `nil`, and the general path renders that key and reports what it must.
final class MatchedURIRenderer: Sendable {
    private enum Piece: Sendable {
        /// Bytes of ``literals``.
        case literal(Range<Int>)
        /// The bytes of capture `index`, lower- or upper-cased as `caseMap` says, encoded as `mode` says.
        case capture(index: Int, caseMap: TemplateFilter?, mode: URIEscaping.Mode)
    }

    private let pattern: NamedPattern
    private let pieces: [Piece]
    /// The template's literal text, one piece after another.
    private let literals: [UInt8]
    /// The capture of `content_id`, when the template uses it: the run notes content ids from patterns.
    let contentIDCapture: Int?

    /// The renderer for `template` and `match`, or `nil` when the general path must render its keys.
    /// `given` are the names of the values given for the whole run (`--var`).
    init?(template: TemplateDefinition, match: NamedPattern?, given: [String]) {
        guard let match, template.uri.startsWithKeyScheme, template.allowHosts.isEmpty, template.secretNames.isEmpty else {
            return nil
        }
        var pieces: [Piece] = []
        var literals: [UInt8] = []
        for segment in template.uri.segments {
            switch segment {
            case .literal(let text):
                pieces.append(.literal(literals.count..<(literals.count + text.utf8.count)))
                literals += text.utf8
            case .placeholder(let placeholder):
                guard let index = match.byteCaptureIndex(of: placeholder.name), !given.contains(placeholder.name),
                    template.variables[placeholder.name]?.pattern == nil,
                    !placeholder.filters.contains(.stripScheme)
                else { return nil }
                // Of lower and upper, the last wins: on ASCII, what the byte matcher captures, the first is undone.
                let caseMap = placeholder.filters.last { $0 == .lower || $0 == .upper }
                pieces.append(
                    .capture(index: index, caseMap: caseMap, mode: placeholder.filters.contains(.url) ? .queryValue : .pathOrQuery))
            }
        }
        self.pattern = match
        self.pieces = pieces
        self.literals = literals
        self.contentIDCapture = template.uri.variableNames.contains("content_id") ? match.byteCaptureIndex(of: "content_id") : nil
    }

    /// What a key's old URI renders to: the new URI's bytes, and the captures (for ``contentIDCapture``).
    /// Both are the scratch's storage: release them before the next render, which then writes into it.
    struct Rendered {
        var uri: [UInt8]
        var captures: [Range<Int>?]
    }

    /// The working memory of renders, the caller's to keep from one key to the next: the matcher's, and
    /// the URI's buffer.
    struct Scratch {
        fileprivate var match = ByteRegex.Scratch()
        fileprivate var uri: [UInt8] = []
    }

    /// The new URI for the key whose old URI is `oldURI`, or `nil` when the general path must render it.
    func render(_ oldURI: UnsafeBufferPointer<UInt8>, scratch: inout Scratch) -> Rendered? {
        guard case .some(.some(let captures)) = pattern.byteCaptures(in: oldURI, scratch: &scratch.match) else { return nil }
        scratch.uri.removeAll(keepingCapacity: true)
        guard render(oldURI, captures: captures, into: &scratch.uri) else { return nil }
        return Rendered(uri: scratch.uri, captures: captures)
    }

    /// Writes the URI for the old URI `oldURI` whose captures are `captures`; `false` when a value cannot
    /// be rendered here.
    private func render(_ oldURI: UnsafeBufferPointer<UInt8>, captures: [Range<Int>?], into uri: inout [UInt8]) -> Bool {
        uri.reserveCapacity(literals.count + oldURI.count)
        for piece in pieces {
            switch piece {
            case .literal(let range):
                uri += literals[range]
            case .capture(let index, let caseMap, let mode):
                guard let range = captures[index] else { return false }
                let value = UnsafeBufferPointer(rebasing: oldURI[range])
                // What the renderer refuses in a value (`"` and control characters) it refuses with a message.
                guard !value.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\"") }) else { return false }
                if let caseMap {
                    let mapped = value.map { caseMap == .lower ? Self.lowercased($0) : Self.uppercased($0) }
                    mapped.withUnsafeBufferPointer { URIEscaping.encode(bytes: $0, mode, appendingTo: &uri) }
                } else {
                    URIEscaping.encode(bytes: value, mode, appendingTo: &uri)
                }
            }
        }
        return true
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    private static func uppercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 32 : byte
    }
}
