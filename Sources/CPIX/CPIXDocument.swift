import MP4

/// What skdpack takes from a DASH-IF CPIX document (2.0 to 2.4): key ids, each DRM system's HLS signaling,
/// key periods and usage rules. Never a key value: the reader does not look inside `Data`, so an
/// encrypted document (`DeliveryDataList`) reads as well as a clear one and no key can leak from here.
public struct CPIXDocument: Sendable {
    /// The file it was read from.
    public var path: String
    /// `CPIX@version` ("2.3"); absent before 2.3.
    public var version: String?
    /// `CPIX@contentId` (SPEKE v2), or SPEKE v1's `CPIX@id` when that is all there is.
    public var contentID: String?
    /// `CPIX@id`.
    public var id: String?
    /// The key values are encrypted for a recipient (`DeliveryDataList`): no matter here, noted for `show`.
    public var hasDeliveryData = false
    public var keys: [ContentKey] = [] {
        didSet { keyPositions = Dictionary(keys.enumerated().map { ($1.kid, $0) }, uniquingKeysWith: { first, _ in first }) }
    }
    public var drmSystems: [DRMSystem] = [] {
        didSet { systemPositions = Dictionary(grouping: drmSystems.indices, by: { drmSystems[$0].kid }) }
    }
    /// Where each key and each key's DRM systems are: a key-rotated document has thousands of keys, and
    /// every key period of a long playlist looks one up.
    private var keyPositions: [KeyID: Int] = [:]
    private var systemPositions: [KeyID: [Int]] = [:]
    public var periods: [KeyPeriod] = []
    public var usageRules: [UsageRule] = [] {
        didSet {
            unusableMapping = usageRules.first { $0.unusableReason != nil }.map { rule in
                "the usage rule at line \(rule.line) \(rule.unusableReason!), so the document maps no key to any track"
            }
        }
    }
    /// Things a reader should know that do not stop the document from being used (a SPEKE contract
    /// broken, an empty signaling element of a request).
    public var notes: [Note] = []

    public init(path: String) { self.path = path }

    /// A remark with the line it is about.
    public struct Note: Sendable, Equatable {
        public var line: Int
        public var message: String
    }

    /// The key with `kid`.
    public func key(_ kid: KeyID) -> ContentKey? { keyPositions[kid].map { keys[$0] } }

    /// The DRM system entry of `kid` for `systemID`.
    public func drmSystem(_ systemID: KeyID, kid: KeyID) -> DRMSystem? {
        systemPositions[kid]?.lazy.map { drmSystems[$0] }.first { $0.systemID == systemID }
    }

    /// The DRM system entries of `kid`.
    public func drmSystems(of kid: KeyID) -> [DRMSystem] { systemPositions[kid]?.map { drmSystems[$0] } ?? [] }

    /// The periods in the order their keys are used: by `@index` where every period has one, else as listed.
    public var periodsInOrder: [KeyPeriod] {
        guard periods.allSatisfy({ $0.index != nil }) else { return periods }
        return periods.sorted { $0.index! < $1.index! }
    }

    /// The reason no key can be mapped to any track, when a rule is unusable: CPIX says a client meeting
    /// one maps no key at all. Kept up to date with ``usageRules``.
    public private(set) var unusableMapping: String?
}

/// `ContentKey`: a key id and what the document says of its use.
public struct ContentKey: Sendable, Equatable {
    public var kid: KeyID
    /// `@explicitIV`, decoded (16 bytes, or 8 as some packagers write).
    public var explicitIV: [UInt8]?
    /// `@commonEncryptionScheme` (`cenc`, `cbc1`, `cens`, `cbcs`).
    public var commonEncryptionScheme: String?
    /// `@contentId` (2.4 bulk delivery).
    public var contentID: String?
    /// `@dependsOnKey`: a leaf key of a hierarchy.
    public var dependsOnKey: KeyID?
    public var line: Int
}

/// `DRMSystem`: one system's signaling for one key.
public struct DRMSystem: Sendable, Equatable {
    public var systemID: KeyID
    public var kid: KeyID
    /// `HLSSignalingData`, decoded, per playlist kind.
    public var hlsSignaling: [HLSSignaling] = []
    /// `URIExtXKey` (deprecated in 2.3, gone in 2.4), decoded: the whole URI attribute value.
    public var uriExtXKey: String?
    public var line: Int

    /// The signaling for a playlist of `kind`.
    public func signaling(for kind: HLSSignaling.Playlist) -> HLSSignaling? { hlsSignaling.first { $0.playlist == kind } }
}

/// An `HLSSignalingData` element: the tag lines to put into a playlist, as text.
public struct HLSSignaling: Sendable, Equatable {
    /// The three vocabularies of `@playlist` (2.0/2.1 `master`/`variant`, 2.2–2.3 `master`/`media`, 2.4
    /// `multiVariant`/`media`) mapped to the two kinds; absent means media.
    public enum Playlist: String, Sendable {
        case multivariant, media
    }

    public var playlist: Playlist
    /// The decoded UTF-8 text: one or more complete tag lines.
    public var text: String
    public var line: Int
}

/// `ContentKeyPeriod`.
public struct KeyPeriod: Sendable, Equatable {
    public var id: String?
    public var index: UInt32?
    /// The time attributes as written (`start`, `end`, `startOffset`, `endOffset`, `duration`).
    public var times: [String: String] = [:]
    public var line: Int
}
