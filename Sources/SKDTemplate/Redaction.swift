import SKDBytes

/// A value that holds a secret: its text form is `REDACTED`; see ``SKDBytes/Secret``.
public typealias Secret = SKDBytes.Secret

/// Keeps secret values (an ExpressPlay token, say) out of everything skdpack shows: messages, reports,
/// diffs, the command line it records. Made of ``Secret``s only: what is secret is typed so where it comes in.
public struct Redaction: Sendable {
    /// What a secret is shown as.
    public static let placeholder = Secret.placeholder
    /// Knows no secret: hides bearer tokens only (``BearerTokens``), which any text may hold.
    public static let none = Redaction(secrets: [])
    /// Hides nothing, bearer tokens included: what `--show-secrets` asks for.
    public static let showingSecrets = Redaction(clear: [], hidesBearerTokens: false)

    /// The secret values, in clear (the redaction must know what to hide).
    private let secrets: [String]
    /// Every form a secret is shown in (as written, percent-encoded for a path or a query value), worked out
    /// once, longest first, so that one secret inside another is not half-replaced.
    private let forms: [String]
    /// The secrets as a set: what a text's bearer tokens are looked up in.
    private let known: Set<String>
    /// Whether bearer tokens are hidden too: always, but where the user asks to see secrets.
    private let hidesBearerTokens: Bool

    public init(secrets: some Sequence<Secret>) {
        self.init(secrets: Array(secrets))
    }

    /// The same for an array, which is what most callers have: not generic, so that a run without secrets
    /// does not pay, at start-up, the runtime's look-up of the sequence type's conformances (~0.05 ms) that
    /// an unspecialised generic call costs the first time.
    public init(secrets: [Secret]) {
        self.init(clear: secrets.map { $0.revealed })
    }

    private init(clear secrets: [String], hidesBearerTokens: Bool = true) {
        self.hidesBearerTokens = hidesBearerTokens
        let given = secrets.filter { !$0.isEmpty }
        // Most runs have no secret: no set is built for them (a run's first Set<String> costs a type lookup).
        guard !given.isEmpty else {
            self.secrets = []
            self.forms = []
            self.known = []
            return
        }
        known = Set(given)
        self.secrets = Array(known)
        // A secret is hidden as a template's filters may write it: in either case (`|upper`, `|lower`, a CPIX IV's
        // hex digits), without its scheme (`|strip_scheme`).
        let cases = self.secrets.flatMap { secret in
            Set([secret, secret.lowercased(), secret.uppercased(), TemplateFilter.stripScheme.apply(to: secret)])
        }
        let forms = cases.flatMap { [$0, URIEscaping.encode($0, .pathOrQuery), URIEscaping.encode($0, .queryValue)] }
        self.forms = Set(forms).sorted { $0.count > $1.count }
    }

    /// Whether it knows no secret (it still hides bearer tokens, unless ``showingSecrets``).
    public var knowsNoSecret: Bool { secrets.isEmpty }

    /// This redaction and `more` secrets: those a playlist's own values brought (a catalogue row, say).
    /// (Not generic, as ``init(secrets:)-([Secret])`` is not: an unspecialised generic call across modules
    /// cost a small playlist's run a fifth of its instructions in the runtime's type look-ups.)
    public func adding(_ more: [Secret]) -> Redaction {
        more.isEmpty ? self : Redaction(clear: secrets + more.map { $0.revealed }, hidesBearerTokens: hidesBearerTokens)
    }

    /// The same for a set of secrets (what a playlist's outcome collects).
    public func adding(_ more: Set<Secret>) -> Redaction { adding(Array(more)) }

    /// This redaction and `other`'s: what a finding about several playlists hides (each playlist's own).
    public func adding(_ other: Redaction) -> Redaction {
        other.knowsNoSecret ? self : Redaction(clear: secrets + other.secrets, hidesBearerTokens: hidesBearerTokens)
    }

    /// `text` with every secret, as written and as percent-encoded in a URI, replaced by `REDACTED`, and with
    /// them any bearer token the text itself holds (``BearerTokens``: a variant's, a rendition's, a segment's or
    /// a key's URI may carry a CDN's or a license service's token, whoever put it there).
    /// A secret cut short where a message shows a long value (`"…"` or `"..."` after its first characters) is
    /// hidden too: what stands before the cut, where it is the start of a secret (8 characters and half the
    /// secret or more).
    public func redact(_ text: String) -> String {
        let bearer = hidesBearerTokens ? BearerTokens.secrets(in: text) : []
        return withNew(bearer).hiding(text)
    }

    /// This redaction and those of `bearer` it does not know yet: a text that repeats a token (a segment URI
    /// in every row of `inspect`, a key URI at every key period) makes no new redaction for it.
    private func withNew(_ bearer: [Secret]) -> Redaction {
        guard !bearer.isEmpty else { return self }
        var seen: Set<String> = []
        let new = bearer.map(\.revealed).filter { !known.contains($0) && seen.insert($0).inserted }
        return new.isEmpty ? self : Redaction(clear: secrets + new, hidesBearerTokens: hidesBearerTokens)
    }

    /// A secret shorter than this is hidden only where it stands alone (no letter, digit, `-` or `_` on either side):
    /// every `x` of a message hidden for a one-letter value would garble it, and tell the value.
    static let wholeWordBelow = 8

    /// `text` with this redaction's secrets hidden.
    private func hiding(_ text: String) -> String {
        guard !forms.isEmpty else { return text }
        var text = text
        for form in forms {
            if form.utf8.count >= Self.wholeWordBelow {
                text = text.replacing(form, with: Self.placeholder)
            } else if text.contains(form) {
                text = String(
                    decoding: Self.replacingWhole(Array(form.utf8), in: Array(text.utf8)) { _ in Array(Self.placeholder.utf8) },
                    as: UTF8.self)
            }
        }
        for cut in ["...", "…"] where text.contains(cut) { text = redactingCutSecrets(text, cut: cut) }
        return text
    }

    private func redactingCutSecrets(_ text: String, cut: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let range = rest.firstRange(of: cut) {
            var before = rest[..<range.lowerBound]
            // The longest start of a secret that the text before the cut ends with.
            // At least 8 characters and half the secret: a secret URL's "https://" alone is no secret.
            let cutSecret = forms.lazy.compactMap { form -> Int? in
                let shortest = max(8, (form.count + 1) / 2)
                let longest = min(form.count - 1, before.count)
                guard longest >= shortest else { return nil }
                return (shortest...longest).reversed().first { before.hasSuffix(form.prefix($0)) }
            }.max()
            if let cutSecret {
                before.removeLast(cutSecret)
                result += before + Self.placeholder
            } else {
                result += before
            }
            result += cut
            rest = rest[range.upperBound...]
        }
        return result + rest
    }

    /// `bytes` (a line as read, maybe not UTF-8) with every secret (and bearer token) covered by as many `*`:
    /// for a quoted line under which a caret must still point at the right column.
    public func mask(_ bytes: [UInt8]) -> [UInt8] {
        let bearer = hidesBearerTokens ? bytes.withUnsafeBytes { BearerTokens.secrets(in: $0) } : []
        return withNew(bearer).covering(bytes)
    }

    /// `bytes` (a diff's lines, maybe not UTF-8) with every secret and bearer token replaced by `REDACTED`; the
    /// bytes as they are where there is nothing to hide.
    public func redact(_ bytes: [UInt8]) -> [UInt8] {
        let bearer = hidesBearerTokens ? bytes.withUnsafeBytes { BearerTokens.secrets(in: $0) } : []
        guard !bearer.isEmpty || !forms.isEmpty else { return bytes }
        return Array(withNew(bearer).hiding(String(decoding: bytes, as: UTF8.self)).utf8)
    }

    private func covering(_ bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        for form in forms {
            let needle = Array(form.utf8)
            bytes = Self.replacingWhole(needle, in: bytes, anywhere: needle.count >= Self.wholeWordBelow) { count in
                Array(repeating: UInt8(ascii: "*"), count: count)
            }
        }
        return bytes
    }

    /// `bytes` with each occurrence of `needle` replaced by what `replacement` makes of its length: every
    /// occurrence if `anywhere`, else only one that stands alone (no ASCII letter or digit, `-`, `_`, nor a
    /// byte of a multi-byte character, just before or after it: the X of `EXT-X-KEY` is no value).
    private static func replacingWhole(
        _ needle: [UInt8], in bytes: [UInt8], anywhere: Bool = false, _ replacement: (Int) -> [UInt8]
    ) -> [UInt8] {
        guard !needle.isEmpty, needle.count <= bytes.count else { return bytes }
        func isWord(_ byte: UInt8) -> Bool {
            byte >= 0x80 || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || (byte &- 0x30) < 10
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var start = 0
        while start < bytes.count {
            if start + needle.count <= bytes.count, bytes[start..<start + needle.count].elementsEqual(needle),
                anywhere
                    || ((start == 0 || !isWord(bytes[start - 1]))
                        && (start + needle.count == bytes.count || !isWord(bytes[start + needle.count])))
            {
                result += replacement(needle.count)
                start += needle.count
            } else {
                result.append(bytes[start])
                start += 1
            }
        }
        return result
    }
}

extension Redaction {
    /// `text` as a run may show it: its secrets and bearer tokens hidden (``redact(_:)``). The one way from a
    /// text to a report's field.
    public func redacted(_ text: String) -> Redacted { Redacted(shown: redact(text)) }

    /// The same for an optional text.
    public func redacted(_ text: String?) -> Redacted? { text.map { redacted($0) } }

    /// Whether `text` holds anything this redaction hides (a secret it knows, a bearer token).
    public func hidesSomething(in text: String) -> Bool { redact(text) != text }
}

/// Text that may be shown: what a ``Redaction`` left of a text (``Redaction/redacted(_:)-(String)``), text
/// written in the source (a literal holds no run's secret), or text read back from a report skdpack wrote
/// (redacted when it was written: ``init(readBack:)``, a reviewed use). Every report field that holds text
/// from an input (a message, a line, a URI, a name, an argument) is one, so that no report is built from a
/// clear secret without a visible call.
public struct Redacted: Hashable, Sendable, Comparable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The text, its secrets hidden.
    public let text: String

    fileprivate init(shown text: String) { self.text = text }

    public init(stringLiteral text: StaticString) { self.text = text.description }

    /// Text read back from a report skdpack wrote (`report merge`): redacted when it was written, and its bearer
    /// tokens hidden again (a report of an older skdpack showed a CDN's). Each use is listed, with its reason,
    /// in `SecretTypeTests.reviewedReadBacks`.
    public init(readBack text: String) { self.text = Redaction.none.redact(text) }

    public init(from decoder: any Decoder) throws { self.init(readBack: try decoder.singleValueContainer().decode(String.self)) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    public var description: String { text }

    public static func < (lhs: Redacted, rhs: Redacted) -> Bool { lhs.text < rhs.text }
}
