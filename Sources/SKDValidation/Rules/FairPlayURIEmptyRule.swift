import HLS
import SKDKeys

/// A FairPlay key URI that names nothing: `skd://`, `skd:///`, `skd:` alone, `skd://?x=1` without a title,
/// or a title parameter of the entitlement form with no value (`?cid=`). The app's resource loader turns
/// the URI into the content id or license URL it asks the key server with: from these it gets an empty one,
/// and every title packaged so asks for the same key (a template rendered with an empty value, or a
/// placeholder never filled).
struct FairPlayURIEmptyRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "FPS-uri-empty", severity: .error,
        summary: "A FairPlay key URI names no key: nothing after skd://, or an empty cid= (content id) in its query.",
        specSection: "Apple FairPlay Streaming Server SDK, Programming Guide (HLS key delivery)")

    static let tags: Set<TagName>? = [.key, .sessionKey]
    static let watchesSegments = false

    /// The query parameters that name a title in an entitlement URI, letter case aside.
    static let titleParameters: Set<String> = ["cid", "content_id", "contentid", "asset", "assetid", "asset_id"]

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard let key = context.key, FairPlay.isFairPlayKey(key), let uri = key.uri, let attribute = tag.attributes?["URI"],
            let problem = Self.problem(uri)
        else { return }
        context.report(Self.kind, problem, line: line, column: attribute.valueColumn + 1)
    }

    /// What is empty in the FairPlay URI `uri`, or `nil` when it names something.
    static func problem(_ uri: String) -> String? {
        guard URIHead(uri).startsInAnyCase(with: "skd:") else { return nil }
        let rest = uri.utf8.dropFirst(4).drop { $0 == UInt8(ascii: "/") }
        let partEnd = rest.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? rest.endIndex
        let queryEnd = rest[partEnd...].firstIndex(of: UInt8(ascii: "#")) ?? rest.endIndex
        let query =
            partEnd < queryEnd && rest[partEnd] == UInt8(ascii: "?")
            ? rest[rest.index(after: partEnd)..<queryEnd] : rest[queryEnd..<queryEnd]
        var namesTitle = false
        for parameter in query.split(separator: UInt8(ascii: "&")) {
            let name = String(decoding: parameter.prefix { $0 != UInt8(ascii: "=") }, as: UTF8.self)
            guard titleParameters.contains(name.lowercased()) else { continue }
            let value = parameter.dropFirst(name.utf8.count + 1)
            if value.isEmpty {
                return "this FairPlay key URI's \(name)= is empty: the app asks the key server for no title; render the "
                    + "template with the title's content id"
            }
            namesTitle = true
        }
        if rest[rest.startIndex..<partEnd].isEmpty, !namesTitle {
            return "this FairPlay key URI names nothing after its scheme: the app has no content id "
                + "or license server to ask for the key; write skd://{content_id} or the entitlement form skd://server/path?cid={content_id}"
        }
        return nil
    }
}
