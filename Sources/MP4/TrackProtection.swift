/// What an init segment says of one track's protection (ISO/IEC 23001-7, clause 8): the sample entry's
/// `sinf` (`frma`, `schm`, `schi/tenc`), with the track's handler and size.
public struct TrackProtection: Sendable, Equatable {
    /// The track's kind, from its `hdlr`.
    public enum Handler: String, Sendable {
        case video, audio, other
    }

    /// `tkhd` track_ID.
    public var trackID: UInt32?
    public var handler: Handler
    /// The `hdlr` handler type as written (`vide`, `soun`, `text`…).
    public var handlerType: String
    /// The sample entry's format: `encv`/`enca` when protected, the codec (`avc1`…) when clear.
    public var sampleEntry: String
    /// `frma`: the codec under the protection.
    public var originalFormat: String?
    /// `schm` scheme type (`cbcs`, `cenc`, `cbc1`, `cens`, or anything else written), `nil` when clear.
    public var scheme: String?
    public var schemeVersion: UInt32?
    /// `tenc` default_isProtected.
    public var isProtected: Bool?
    /// `tenc` default_KID.
    public var defaultKID: KeyID?
    /// `tenc` default_Per_Sample_IV_Size: 0 when a constant IV is used.
    public var perSampleIVSize: UInt8?
    /// `tenc` default_constant_IV, when the per-sample IV size is 0.
    public var constantIV: [UInt8]?
    /// `tenc` version 1 default_crypt_byte_block and default_skip_byte_block (the cbcs pattern).
    public var pattern: (crypt: UInt8, skip: UInt8)?
    /// `tenc` was found in a PIFF `uuid` box rather than a `tenc` box.
    public var isPIFF = false
    /// Visual sample entry width × height, audio sample entry channel count.
    public var width: Int?
    public var height: Int?
    public var channelCount: Int?
    /// The track's `mdhd` timescale: ticks per second of its sample times.
    public var timescale: UInt32?
    /// The codec as RFC 6381 writes it in `CODECS` (`avc1.64001f`, `hvc1.2.4.L123.B0`, `mp4a.40.2`,
    /// `ac-3`, `ec-3`), from the sample entry's configuration box; `nil` where there is none known here.
    public var codec: String?

    public init(handler: Handler, handlerType: String, sampleEntry: String) {
        self.handler = handler
        self.handlerType = handlerType
        self.sampleEntry = sampleEntry
    }

    /// Whether the samples are protected: the entry has a protection scheme, or is a protected sample
    /// entry (`encv`, `enca`, `encs`, `enct`) even where its `schm` is missing (some PIFF files).
    public var isEncrypted: Bool { scheme != nil || sampleEntry.hasPrefix("enc") }

    public static func == (lhs: TrackProtection, rhs: TrackProtection) -> Bool {
        lhs.trackID == rhs.trackID && lhs.handler == rhs.handler && lhs.handlerType == rhs.handlerType
            && lhs.sampleEntry == rhs.sampleEntry && lhs.originalFormat == rhs.originalFormat && lhs.scheme == rhs.scheme
            && lhs.schemeVersion == rhs.schemeVersion && lhs.isProtected == rhs.isProtected && lhs.defaultKID == rhs.defaultKID
            && lhs.perSampleIVSize == rhs.perSampleIVSize && lhs.constantIV == rhs.constantIV
            && lhs.pattern?.crypt == rhs.pattern?.crypt && lhs.pattern?.skip == rhs.pattern?.skip && lhs.isPIFF == rhs.isPIFF
            && lhs.width == rhs.width && lhs.height == rhs.height && lhs.channelCount == rhs.channelCount
            && lhs.timescale == rhs.timescale && lhs.codec == rhs.codec
    }
}

/// A `pssh` box (or its PIFF `uuid` form): the DRM system it is for, and the key ids version 1 lists.
public struct ProtectionSystemHeader: Sendable, Equatable {
    /// The SystemID, as a UUID.
    public var systemID: KeyID
    public var version: UInt8
    public var keyIDs: [KeyID]
    /// Found as a PIFF `uuid` box.
    public var isPIFF: Bool
    /// Where the box starts in the file.
    public var offset: Int

    public init(systemID: KeyID, version: UInt8, keyIDs: [KeyID], isPIFF: Bool, offset: Int) {
        self.systemID = systemID
        self.version = version
        self.keyIDs = keyIDs
        self.isPIFF = isPIFF
        self.offset = offset
    }
}

/// `trex`: the sample duration, size and flags a track's fragments use where they give none.
public struct FragmentDefaults: Sendable, Equatable {
    public var trackID: UInt32
    /// default_sample_description_index: which of the track's sample entries (from 1) the samples use.
    public var sampleDescriptionIndex: UInt32 = 1
    public var sampleDuration: UInt32
    public var sampleSize: UInt32
    public var sampleFlags: UInt32

    public init(trackID: UInt32, sampleDescriptionIndex: UInt32 = 1, sampleDuration: UInt32, sampleSize: UInt32, sampleFlags: UInt32) {
        self.trackID = trackID
        self.sampleDescriptionIndex = sampleDescriptionIndex
        self.sampleDuration = sampleDuration
        self.sampleSize = sampleSize
        self.sampleFlags = sampleFlags
    }
}
