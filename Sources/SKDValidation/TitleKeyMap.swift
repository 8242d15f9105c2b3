import HLS
import SKDFiles
import SKDKeys
import SKDTemplate

/// A FairPlay URI a key period uses, as `validate` reads it: the URI (substituted), its digest, the
/// evidence of its key where the period has any, and where it is used first.
public struct KeyUse: Sendable {
    public var uri: String
    public var digest: UInt64
    public var evidence: KeyEvidence?
    public var place: KeyMap.Place
}

/// A title's key map as people read it (`skdpack inspect`): each key with the evidence that tells it, the
/// FairPlay URI or URIs it has, and the periods (`playlist:line`) that use it; then what breaks the map.
/// Where no evidence tells a period's key, its URI stands for it ("evidence": "none"): one key per URI, as
/// far as anything here can tell.
public struct TitleKeyMap: Encodable, Sendable {
    public struct Key: Encodable, Sendable {
        /// `keyid` (the KEYID of a key tag of the period), or `none`.
        public var evidence: String
        /// The key id, as 32 lowercase hex digits, where the evidence is one.
        public var keyID: String?
        /// Its FairPlay URIs, secrets hidden: one, unless the map is broken.
        public var uris: [String]
        /// The periods that use it, as `playlist:line` of their FairPlay key.
        public var periods: [String]
    }

    public var keys: [Key] = []
    /// What breaks the map (``KeyMapRule``): `playlist:line: message [rule]`.
    public var findings: [String] = []

    /// The map of a title's media playlists, as validated, in the order its master lists them.
    public init(_ media: [PlaylistValidation]) {
        var index: [String: Int] = [:]
        for playlist in media {
            for use in playlist.keyUses {
                let uri = playlist.redaction.redact(use.uri)
                let name = use.evidence.map { "keyid:\($0.keyIDHex ?? "")" } ?? "uri:\(use.uri)"
                if index[name] == nil {
                    index[name] = keys.count
                    keys.append(Key(evidence: use.evidence == nil ? "none" : "keyid", keyID: use.evidence?.keyIDHex, uris: [], periods: []))
                }
                let key = index[name]!
                if !keys[key].uris.contains(uri) { keys[key].uris.append(uri) }
                keys[key].periods.append(use.place.description)
            }
        }
        findings = KeyMapRule.check(media).map { finding in
            let redaction = media.first { $0.path == finding.location.path }?.redaction ?? .none
            return "\(finding.location.path):\(finding.location.line): \(redaction.redact(finding.message)) [\(finding.id.rawValue)]"
        }
    }
}

extension TitleKeyMap {
    /// The key map of the title of the playlist at `path`: a master and the media playlists it lists, or a
    /// media playlist alone; `nil` when it cannot be read.
    public static func read(_ path: String, options: ValidationOptions = ValidationOptions()) -> TitleKeyMap? {
        guard let package = PlaylistDiscovery().discover([path]).packages.first else { return nil }
        let result = ValidationRunner(options: options).run(package)
        // In the order the master lists them: keys are met, and numbered, in that order.
        let media = package.media.compactMap { file in result.playlists.first { $0.path == file.path } }
        return TitleKeyMap(media)
    }
}
