import Glibc
import HLS

/// A segment's URI with a space inside it, or a key's or an init segment's (the quoted URI of EXT-X-KEY,
/// EXT-X-SESSION-KEY, EXT-X-MAP): a URI holds none (RFC 3986 writes it `%20`), and RFC 8216 4.1 allows
/// whitespace only where an element says so. A player that makes a URL of it fails (Foundation's
/// `URL(string:)` gives none) or asks for another name; a FairPlay app hands the key server a content id
/// cut at the space, or none. Spaces around a segment's line are the reader's `HLS-whitespace`, a tab its
/// `HLS-tab-character`.
struct URISpaceRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-uri-space", severity: .error, summary: "A segment, key or init segment URI holds a space, which a URI writes %20.",
        specSection: "4.1")

    static let tags: Set<TagName>? = [.key, .sessionKey, .map]

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard let name = tag.name, let attribute = tag.attributes?["URI"], attribute.isQuoted else { return }
        // (A long data: URI of another system is searched by memchr, not a byte at a time.)
        guard
            let space = attribute.textBytes.withUnsafeBytes({ text in
                text.baseAddress.flatMap { memchr($0, 0x20, text.count) }.map { text.baseAddress!.distance(to: $0) }
            })
        else { return }
        let what = name == .map ? "init segment" : "key"
        context.report(
            Self.kind, "this \(what) URI holds a space: a URI holds none; write it %20 (a player makes no URL of it)",
            line: line, column: attribute.valueColumn + 1 + space)
    }

    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        guard let column = Self.spaceColumn(line.content) else { return }
        context.report(
            Self.kind, "this segment URI holds a space: a URI holds none; write it %20 (a player makes no URL of the line)",
            line: line, column: context.fileColumn(line.prefixLength + column, on: line))
    }

    /// Each URI of a run, searched for a space (a run holds none around its URIs), where the run holds one.
    mutating func segments(_ run: SegmentRun, in context: RuleContext) {
        guard run.holdsSpace else { return }
        run.forEachEvent { event in
            if case .uri(let raw, _) = event, Self.spaceColumn(raw.content) != nil { segment(at: event.line, in: context) }
            return true
        }
    }

    /// The 1-based column in `uri` of its first space between its first and last byte that are not spaces.
    static func spaceColumn(_ uri: UnsafeRawBufferPointer) -> Int? {
        // Most URIs hold no space: one memchr tells.
        guard let base = uri.baseAddress, memchr(base, 0x20, uri.count) != nil else { return nil }
        let start = uri.firstIndex { $0 != 0x20 } ?? uri.count
        let end = (uri.lastIndex { $0 != 0x20 } ?? -1) + 1
        return uri[start..<max(start, end)].firstIndex(of: 0x20).map { $0 + 1 }
    }
}
