/// Keeps secret values (an ExpressPlay token, say) out of everything skdpack shows: messages, reports,
/// diffs, the command line it records.
public struct Redaction: Sendable {
    /// What a secret is shown as.
    public static let placeholder = "REDACTED"

    /// The secret values, longest first, so that one secret inside another is not half-replaced.
    private let secrets: [String]

    public init(secrets: some Sequence<String>) {
        let given = secrets.filter { !$0.isEmpty }
        // Most runs have no secret: no set is built for them (a run's first Set<String> costs a type lookup).
        self.secrets = given.isEmpty ? [] : Set(given).sorted { $0.count > $1.count }
    }

    public var isEmpty: Bool { secrets.isEmpty }

    /// This redaction and `more` secrets: those a playlist's own values brought (a catalogue row, say).
    public func adding(_ more: some Sequence<String>) -> Redaction { Redaction(secrets: secrets + more) }

    /// `text` with every secret, as written and as percent-encoded in a URI, replaced by `REDACTED`.
    public func redact(_ text: String) -> String {
        var text = text
        for secret in secrets {
            for form in Set([secret, URIEscaping.encode(secret, .pathOrQuery), URIEscaping.encode(secret, .queryValue)]) {
                text = text.replacing(form, with: Self.placeholder)
            }
        }
        return text
    }

    /// `bytes` (a line as read, maybe not UTF-8) with every secret covered by as many `*`: for a quoted
    /// line under which a caret must still point at the right column.
    public func mask(_ bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        for secret in secrets {
            for form in Set([secret, URIEscaping.encode(secret, .pathOrQuery), URIEscaping.encode(secret, .queryValue)]) {
                let needle = Array(form.utf8)
                guard !needle.isEmpty, needle.count <= bytes.count else { continue }
                var start = 0
                while start + needle.count <= bytes.count {
                    if bytes[start..<start + needle.count].elementsEqual(needle) {
                        bytes.replaceSubrange(start..<start + needle.count, with: repeatElement(UInt8(ascii: "*"), count: needle.count))
                        start += needle.count
                    } else {
                        start += 1
                    }
                }
            }
        }
        return bytes
    }
}
