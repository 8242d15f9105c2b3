import HLS

/// The attribute rules of one EXT-X-MEDIA tag (RFC 8216 4.3.4.1 and 4.3.4.2.1): what its TYPE requires
/// or forbids, and DEFAULT=YES only with AUTOSELECT=YES. A player that meets a broken rendition may drop
/// it (captions that never show) or refuse the master.
struct RenditionAttributesRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-media-attributes", severity: .error,
        summary: "An EXT-X-MEDIA tag breaks an attribute rule of its TYPE (URI, INSTREAM-ID, FORCED, AUTOSELECT).",
        specSection: "4.3.4.1")

    static let tags: Set<TagName>? = [.media]
    static let watchesSegments = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        // A TYPE that is none of the four is HLS-attribute-value's finding; what depends on it is not judged.
        guard tag.name == .media, let list = tag.attributes, let type = tag.unquoted("TYPE"),
            EnumeratedValueRule.renditionTypes.contains(type)
        else { return }
        func report(_ message: String, at attribute: Attribute?) {
            context.report(Self.kind, message, line: line, column: attribute?.column ?? tag.valueColumn ?? 1)
        }
        if tag.unquoted("DEFAULT") == "YES", let autoselect = list["AUTOSELECT"], autoselect.text != "YES" {
            report("DEFAULT=YES needs AUTOSELECT=YES (or no AUTOSELECT) (4.3.4.1)", at: autoselect)
        }
        if let forced = list["FORCED"], type != "SUBTITLES" {
            report("FORCED may be present only when TYPE=SUBTITLES; remove it from this \(type) rendition (4.3.4.1)", at: forced)
        }
        // rfc8216bis 4.4.6.1: each "MUST NOT be present unless the TYPE is AUDIO".
        for name in ["CHANNELS", "BIT-DEPTH", "SAMPLE-RATE"] where type != "AUDIO" {
            if let attribute = list[name] {
                report("\(name) is for AUDIO renditions only; remove it from this \(type) one (rfc8216bis 4.4.6.1)", at: attribute)
            }
        }
        let instreamID = list["INSTREAM-ID"]
        switch type {
        case "CLOSED-CAPTIONS":
            if let uri = list["URI"] {
                report("a CLOSED-CAPTIONS rendition must not have a URI: its captions are in the video (4.3.4.1)", at: uri)
            }
            if let instreamID {
                if !Self.isChannel(instreamID.text) {
                    report(
                        "INSTREAM-ID must be CC1 to CC4 or SERVICE1 to SERVICE63, found \"\(instreamID.text.prefix(40))\" (4.3.4.1)",
                        at: instreamID)
                }
            } else {
                report("a CLOSED-CAPTIONS rendition needs INSTREAM-ID (CC1 to CC4, SERVICE1 to SERVICE63) (4.3.4.1)", at: nil)
            }
        case "SUBTITLES":
            if list["URI"] == nil { report("a SUBTITLES rendition needs a URI (4.3.4.2.1)", at: nil) }
            fallthrough
        default:
            // rfc8216bis 4.4.6.1 makes it OPTIONAL for the other TYPEs (the protocol version 13 of section 8
            // is HLS-version-too-low's): letters, digits and '.'.
            if let instreamID,
                !instreamID.text.unicodeScalars.allSatisfy({
                    $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == ".")
                })
            {
                report(
                    "INSTREAM-ID of TYPE=\(type) is letters, digits and '.', found \"\(instreamID.text.prefix(40))\" (rfc8216bis 4.4.6.1)",
                    at: instreamID)
            }
        }
    }

    /// `CC1`…`CC4`, `SERVICE1`…`SERVICE63`.
    static func isChannel(_ text: String) -> Bool {
        if text.count == 3, text.hasPrefix("CC"), let digit = text.last, ("1"..."4").contains(digit) { return true }
        guard text.hasPrefix("SERVICE") else { return false }
        let number = text.dropFirst(7)
        guard let value = Int(number), (1...63).contains(value), number.first != "0", number.allSatisfy(\.isASCII)
        else { return false }
        return true
    }
}
