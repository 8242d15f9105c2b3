import CPIX
import HLS
import MP4

/// What a CPIX document says FairPlay's key for one content key is: its `HLSSignalingData` read as the
/// key lines they carry (the media playlist's `EXT-X-KEY`, the master's `EXT-X-SESSION-KEY`), or the older
/// `URIExtXKey`, the URI alone.
///
/// The signaling is parsed here with the playlist engine's own tag parser, never spliced into a playlist:
/// what apply writes from it goes through the checked writer like any other value.
public struct CPIXFairPlayKey: Sendable, Equatable {
    public var kid: KeyID
    /// The `EXT-X-KEY` of the media signaling.
    public var media: KeyAttributes?
    /// The `EXT-X-SESSION-KEY` of the multivariant signaling.
    public var session: KeyAttributes?
    /// `URIExtXKey`, decoded.
    public var uri: String?
    /// Lines of the signaling that are not a FairPlay key line, with the element's line in the document.
    public var problems: [(line: Int, message: String)] = []

    /// FairPlay's signaling for `kid` in `document`, or `nil` when the document has none.
    public init?(document: CPIXDocument, kid: KeyID) {
        guard let system = document.drmSystem(ProtectionSystem.fairPlay, kid: kid) else { return nil }
        self.kid = kid
        self.uri = system.uriExtXKey
        for signaling in system.hlsSignaling {
            let wanted: TagName = signaling.playlist == .media ? .key : .sessionKey
            // By bytes: a document with a key per period has thousands of signalings.
            for line in signaling.text.utf8.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D }) where !line.isEmpty {
                let parsed = Array(line).withUnsafeBytes { TagParser.parse($0).tag }
                guard parsed.name == wanted, let key = KeyTag(parsed) else {
                    // Proprietary tags are allowed beside the key ("may contain multiple lines"): kept out.
                    if parsed.name == .key || parsed.name == .sessionKey {
                        problems.append(
                            (
                                signaling.line,
                                "the \(signaling.playlist.rawValue) signaling has \(parsed.name?.rawValue ?? "another tag") where \(wanted.rawValue) belongs"
                            ))
                    }
                    continue
                }
                guard FairPlay.isFairPlayKey(key), let uri = key.uri else {
                    problems.append(
                        (
                            signaling.line,
                            "the \(signaling.playlist.rawValue) signaling's key is not a FairPlay key (KEYFORMAT \"\(key.keyFormat)\")"
                        ))
                    continue
                }
                let attributes = KeyAttributes(
                    method: key.method, uri: uri, keyFormat: key.keyFormat, keyFormatVersions: key.keyFormatVersions,
                    iv: key.iv.map { "0x" + $0.lowercased() })
                if signaling.playlist == .media { media = attributes } else { session = attributes }
            }
        }
        if media == nil, session == nil, uri == nil { return nil }
    }

    /// The URI the document gives the key: the media signaling's, else the session key's, else URIExtXKey.
    public var keyURI: String? { media?.uri ?? session?.uri ?? uri }

    public static func == (lhs: CPIXFairPlayKey, rhs: CPIXFairPlayKey) -> Bool {
        lhs.kid == rhs.kid && lhs.media == rhs.media && lhs.session == rhs.session && lhs.uri == rhs.uri
    }
}
