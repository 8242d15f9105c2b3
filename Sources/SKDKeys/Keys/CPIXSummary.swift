import CPIX
import MP4
import SKDTemplate

/// What skdpack understood of a CPIX document, as `cpix show` prints it: keys, DRM systems with FairPlay's
/// signaling decoded, periods, usage rules, notes. It is made from ``CPIXDocument``, which holds no key
/// value, so no key value can appear here.
public struct CPIXSummary: Encodable, Sendable {
    public struct Key: Encodable, Sendable {
        public var kid: String
        public var kidHex: String
        public var commonEncryptionScheme: String?
        public var explicitIV: String?
        public var contentID: String?
        public var line: Int
        public var systems: [System]
        public var fairPlay: FairPlay?
    }

    public struct System: Encodable, Sendable {
        public var systemID: String
        public var name: String?
        public var signaling: [String: String]
        public var uriExtXKey: String?
        public var line: Int
    }

    public struct FairPlay: Encodable, Sendable {
        public var method: String?
        public var uri: String?
        public var keyFormat: String?
        public var keyFormatVersions: String?
        public var iv: String?
        public var sessionKey: Bool
        public var problems: [String]?
    }

    public struct Period: Encodable, Sendable {
        public var id: String?
        public var index: UInt32?
        public var times: [String: String]?
        public var line: Int
    }

    public struct Rule: Encodable, Sendable {
        public var kid: String
        public var intendedTrackType: String?
        public var selects: String
        public var unusable: String?
        public var line: Int
    }

    public struct Note: Encodable, Sendable {
        public var line: Int
        public var message: String
    }

    public var path: String
    public var version: String?
    public var contentID: String?
    public var encryptedKeyValues: Bool
    public var keys: [Key]
    public var periods: [Period]
    public var usageRules: [Rule]
    public var mapping: String
    public var notes: [Note]

    /// What hides `document`'s secrets (its IVs, the tokens of its key URIs), unless `showingSecrets`.
    public static func redaction(of document: CPIXDocument, showingSecrets: Bool) -> Redaction {
        showingSecrets ? .showingSecrets : Redaction(secrets: document.secrets)
    }

    /// What `cpix show` shows of `document`: its IVs and the tokens of its key URIs as `REDACTED` unless
    /// `showingSecrets` (``CPIX/CPIXDocument/secrets``).
    public init(_ document: CPIXDocument, showingSecrets: Bool = false) {
        let redaction = Self.redaction(of: document, showingSecrets: showingSecrets)
        path = document.path
        version = document.version
        contentID = document.contentID
        encryptedKeyValues = document.hasDeliveryData
        keys = document.keys.map { key in
            let systems = document.drmSystems(of: key.kid).map { system in
                System(
                    systemID: system.systemID.uuid, name: ProtectionSystem.name(of: system.systemID),
                    signaling: Dictionary(
                        system.hlsSignaling.map { ($0.playlist.rawValue, redaction.redact($0.text)) },
                        uniquingKeysWith: { first, _ in first }),
                    uriExtXKey: system.uriExtXKey.map(redaction.redact), line: system.line)
            }
            let fairPlay = CPIXFairPlayKey(document: document, kid: key.kid).map { signaling in
                let attributes = signaling.media ?? signaling.session
                return FairPlay(
                    method: attributes?.method, uri: signaling.keyURI.map(redaction.redact), keyFormat: attributes?.keyFormat,
                    keyFormatVersions: attributes?.keyFormatVersions, iv: attributes?.iv.map(redaction.redact),
                    sessionKey: signaling.session != nil,
                    problems: signaling.problems.isEmpty
                        ? nil : signaling.problems.map { "line \($0.line): \(redaction.redact($0.message))" })
            }
            return Key(
                kid: key.kid.uuid, kidHex: key.kid.hex, commonEncryptionScheme: key.commonEncryptionScheme,
                explicitIV: key.explicitIV.map { redaction.redact(KeyID.hex($0)) }, contentID: key.contentID, line: key.line,
                systems: systems, fairPlay: fairPlay)
        }
        periods = document.periodsInOrder.map {
            Period(id: $0.id, index: $0.index, times: $0.times.isEmpty ? nil : $0.times, line: $0.line)
        }
        usageRules = document.usageRules.map {
            Rule(kid: $0.kid.uuid, intendedTrackType: $0.intendedTrackType, selects: $0.summary, unusable: $0.unusableReason, line: $0.line)
        }
        mapping =
            document.unusableMapping
            ?? (document.usageRules.isEmpty
                ? (document.keys.count == 1
                    ? "no usage rules: the one key is for every track"
                    : "no usage rules: \(document.keys.count) keys and nothing to choose between them by")
                : "by usage rules")
        notes = document.notes.map { Note(line: $0.line, message: redaction.redact($0.message)) }
    }

    /// The same as text, for a terminal.
    public var text: String {
        var lines = ["\(path): CPIX \(version ?? "(no version)"), content id \(contentID ?? "(none)")"]
        if encryptedKeyValues { lines.append("key values are encrypted for a recipient (DeliveryDataList); skdpack does not need them") }
        lines.append("keys: \(keys.count)")
        for key in keys {
            var facts = ["line \(key.line)"]
            if let scheme = key.commonEncryptionScheme { facts.append("scheme \(scheme)") }
            if let iv = key.explicitIV { facts.append("explicit IV \(iv == Redaction.placeholder ? iv : "0x" + iv)") }
            if let content = key.contentID { facts.append("content id \(content)") }
            lines.append("  \(key.kid)  " + facts.joined(separator: ", "))
            for system in key.systems {
                lines.append("    \(system.name ?? system.systemID) (line \(system.line))")
                for (playlist, text) in system.signaling.sorted(by: { $0.key < $1.key }) {
                    for line in text.split(whereSeparator: \.isNewline) { lines.append("      \(playlist): \(line)") }
                }
                if let uri = system.uriExtXKey { lines.append("      URIExtXKey: \(uri)") }
            }
            if let fairPlay = key.fairPlay {
                lines.append(
                    "    FairPlay key: URI \(fairPlay.uri ?? "-"), METHOD \(fairPlay.method ?? "-"), KEYFORMATVERSIONS \(fairPlay.keyFormatVersions ?? "-")"
                )
                for problem in fairPlay.problems ?? [] { lines.append("      problem: \(problem)") }
            }
        }
        lines.append("periods: \(periods.count)")
        for period in periods {
            let times = (period.times ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            lines.append(
                "  line \(period.line): id \(period.id ?? "-"), index \(period.index.map(String.init) ?? "-") \(times.joined(separator: " "))"
            )
        }
        lines.append("usage rules: \(usageRules.count) (\(mapping))")
        for rule in usageRules {
            let type = rule.intendedTrackType.map { " [\($0)]" } ?? ""
            lines.append("  line \(rule.line): \(rule.kid)\(type): \(rule.selects)" + (rule.unusable.map { " (unusable: \($0))" } ?? ""))
        }
        for note in notes { lines.append("note: line \(note.line): \(note.message)") }
        // Signaling text comes from the document: a terminal must not receive its escape sequences.
        return lines.map(PrintableText.escaping).joined(separator: "\n") + "\n"
    }
}
