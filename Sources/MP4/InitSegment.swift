/// What an fMP4 init segment says of its protection: per track the scheme, default key id and IV layout
/// (`moov/trak/…/stsd/<entry>/sinf`), and the `pssh` boxes at `moov` level.
///
/// The walk follows the fixed path of the boxes it needs (ISO/IEC 14496-12 and 23001-7) and never
/// recurses into boxes it does not know, so its depth is bounded by the code, not by the file; every size
/// is checked against the box holding it before anything inside is read.
public struct InitSegment: Sendable, Equatable {
    /// The types of the top-level boxes, in order (`ftyp`, `moov`…).
    public var topLevelBoxes: [String] = []
    public var tracks: [TrackProtection] = []
    public var protectionSystems: [ProtectionSystemHeader] = []
    /// PIFF `uuid` boxes met (tenc, pssh, sample encryption), by name.
    public var piffBoxes: [String] = []
    /// `moov/mvex/trex`: what each track's fragments leave unsaid (14496-12, 8.8.3).
    public var fragmentDefaults: [FragmentDefaults] = []

    public init() {}

    /// The boxes a file of ISO BMFF media starts with: anything else is not one (a playlist, a TS file).
    static let firstBoxes: Set<FourCC> = [
        FourCC("ftyp"), FourCC("styp"), FourCC("moov"), FourCC("free"), FourCC("skip"), FourCC("wide"), FourCC("sidx"),
        FourCC("uuid"), FourCC("pdin"), FourCC("prft"), FourCC("emsg"), FourCC("meta"),
    ]

    /// Whether a file whose first eight bytes are `header` starts the way an init segment does (the first
    /// box's type), so that a tool can tell one from a playlist before reading it.
    public static func mayStart(with header: some Collection<UInt8>) -> Bool {
        guard header.count >= 8 else { return false }
        let type = header.dropFirst(4).prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return firstBoxes.contains(FourCC(type))
    }

    /// Reads the init segment in `bytes`; `baseOffset` is where `bytes` start in the file, for errors.
    public static func parse(_ bytes: [UInt8], baseOffset: Int = 0) throws(MP4FormatError) -> InitSegment {
        var walk = InitSegmentWalk(reader: BoxReader(bytes: bytes, baseOffset: baseOffset))
        try walk.run()
        return walk.segment
    }
}

/// PIFF 1.1's boxes, which predate `tenc` and `pssh` and are `uuid` boxes with these user types.
enum PIFFBox {
    static let trackEncryption = KeyID("8974dbce-7be7-4c51-84f9-7148f9882554")!
    static let protectionSystemHeader = KeyID("d08a4f18-10f3-4a82-b6c8-32d8aba183d3")!
    static let sampleEncryption = KeyID("a2394f52-5a9b-4f14-a244-6c427c648df4")!

    static func name(_ userType: [UInt8]) -> String? {
        switch KeyID(bytes: userType) {
        case trackEncryption: "PIFF tenc"
        case protectionSystemHeader: "PIFF pssh"
        case sampleEncryption: "PIFF senc"
        default: nil
        }
    }
}

/// One walk over an init segment's boxes.
private struct InitSegmentWalk {
    let reader: BoxReader
    var segment = InitSegment()

    init(reader: BoxReader) { self.reader = reader }

    mutating func run() throws(MP4FormatError) {
        var sawMovie = false
        try reader.forEachBox(in: 0..<reader.bytes.count, parent: []) { (box) throws(MP4FormatError) in
            segment.topLevelBoxes.append(box.type.description)
            if segment.topLevelBoxes.count == 1, !InitSegment.firstBoxes.contains(box.type) {
                throw reader.error(at: box.start, box.path, "an init segment starts with 'ftyp', 'styp' or 'moov'")
            }
            if box.type == FourCC("moov") {
                sawMovie = true
                try movie(box)
            }
        }
        guard sawMovie else {
            throw reader.error(
                at: 0, [], "no 'moov' box: not an init segment (top-level boxes: \(segment.topLevelBoxes.joined(separator: ", ")))")
        }
    }

    private mutating func movie(_ movie: Box) throws(MP4FormatError) {
        try reader.forEachBox(in: movie.payload, parent: movie.path) { (box) throws(MP4FormatError) in
            switch box.type {
            case FourCC("trak"): segment.tracks += try track(box)
            case FourCC("mvex"):
                try reader.forEachBox(in: box.payload, parent: box.path) { (child) throws(MP4FormatError) in
                    if child.type == FourCC("trex") { segment.fragmentDefaults.append(try trackExtends(child)) }
                }
            case FourCC("pssh"): segment.protectionSystems.append(try protectionSystemHeader(box, isPIFF: false))
            case FourCC("uuid"): try piff(box)
            default: break
            }
        }
    }

    private mutating func piff(_ box: Box) throws(MP4FormatError) {
        guard let userType = box.userType, let name = PIFFBox.name(userType) else { return }
        segment.piffBoxes.append(name)
        if KeyID(bytes: userType) == PIFFBox.protectionSystemHeader {
            segment.protectionSystems.append(try protectionSystemHeader(box, isPIFF: true))
        }
    }

    // MARK: Tracks

    /// The protection of each sample entry of a `trak` (one per entry: a track may list several).
    private mutating func track(_ track: Box) throws(MP4FormatError) -> [TrackProtection] {
        var trackID: UInt32?
        var handlerType: FourCC?
        var timescale: UInt32?
        var sampleDescriptions: Box?
        try reader.forEachBox(in: track.payload, parent: track.path) { (box) throws(MP4FormatError) in
            switch box.type {
            case FourCC("tkhd"): trackID = try self.trackID(box)
            case FourCC("mdia"):
                try reader.forEachBox(in: box.payload, parent: box.path) { (box) throws(MP4FormatError) in
                    switch box.type {
                    case FourCC("mdhd"):
                        var fields = reader.fields(of: box)
                        let (version, _) = try fields.versionAndFlags()
                        try fields.skip(version == 1 ? 16 : 8, "creation and modification times")
                        timescale = try fields.u32("timescale")
                    case FourCC("hdlr"):
                        var fields = reader.fields(of: box)
                        _ = try fields.versionAndFlags()
                        try fields.skip(4, "pre_defined")
                        handlerType = try fields.fourCC("handler_type")
                    case FourCC("minf"):
                        sampleDescriptions = try find(["stbl", "stsd"], in: box)
                    default: break
                    }
                }
            default: break
            }
        }
        guard let sampleDescriptions else { return [] }
        let type = handlerType ?? FourCC(0)
        let handler: TrackProtection.Handler =
            switch type {
            case FourCC("vide"): .video
            case FourCC("soun"): .audio
            default: .other
            }
        var fields = reader.fields(of: sampleDescriptions)
        _ = try fields.versionAndFlags()
        let count = try fields.u32("entry_count")
        var entries: [TrackProtection] = []
        try reader.forEachBox(in: fields.position..<sampleDescriptions.end, parent: sampleDescriptions.path) {
            (entry) throws(MP4FormatError) in
            guard entries.count < count else { return }
            var protection = TrackProtection(handler: handler, handlerType: type.description, sampleEntry: entry.type.description)
            protection.trackID = trackID
            protection.timescale = timescale
            try sampleEntry(entry, into: &protection)
            entries.append(protection)
        }
        return entries
    }

    /// `trex` (14496-12, 8.8.3).
    private func trackExtends(_ box: Box) throws(MP4FormatError) -> FragmentDefaults {
        var fields = reader.fields(of: box)
        _ = try fields.versionAndFlags()
        let trackID = try fields.u32("track_ID")
        let index = try fields.u32("default_sample_description_index")
        return FragmentDefaults(
            trackID: trackID, sampleDescriptionIndex: index, sampleDuration: try fields.u32("default_sample_duration"),
            sampleSize: try fields.u32("default_sample_size"), sampleFlags: try fields.u32("default_sample_flags"))
    }

    private func trackID(_ box: Box) throws(MP4FormatError) -> UInt32 {
        var fields = reader.fields(of: box)
        let (version, _) = try fields.versionAndFlags()
        try fields.skip(version == 1 ? 16 : 8, "creation and modification times")
        return try fields.u32("track_ID")
    }

    /// The box at `path` under `box`, the first of each name.
    private func find(_ path: [String], in box: Box) throws(MP4FormatError) -> Box? {
        var current = box
        for name in path {
            var found: Box?
            try reader.forEachBox(in: current.payload, parent: current.path) { (child) throws(MP4FormatError) in
                if found == nil, child.type.description == name { found = child }
            }
            guard let next = found else { return nil }
            current = next
        }
        return current
    }

    /// A sample entry's size (visual) or channels (audio), and its `sinf` if it has one. Its child boxes
    /// start after the fields of its kind (14496-12, 12.1.3 and 12.2.3). An audio entry whose first field
    /// is 1 or 2 is a QuickTime sound description of that version (16 or 36 bytes more) or an ISO
    /// AudioSampleEntryV1 (no more): the QuickTime layout is tried first, the ISO one if its boxes do not
    /// hold together.
    private func sampleEntry(_ entry: Box, into protection: inout TrackProtection) throws(MP4FormatError) {
        var fields = reader.fields(of: entry)
        try fields.skip(8, "reserved and data_reference_index")
        var childrenOffset: Int
        var fallbackOffset: Int?
        switch protection.handler {
        case .video:
            try fields.skip(16, "pre_defined and reserved")
            protection.width = Int(try fields.u16("width"))
            protection.height = Int(try fields.u16("height"))
            childrenOffset = 78
        case .audio:
            let soundVersion = try fields.u16("sound version")
            try fields.skip(6, "reserved")
            protection.channelCount = Int(try fields.u16("channelcount"))
            childrenOffset = 28 + (soundVersion == 1 ? 16 : soundVersion == 2 ? 36 : 0)
            if childrenOffset != 28 { fallbackOffset = 28 }
        case .other:
            childrenOffset = 8
        }
        if let fallback = fallbackOffset, entry.payload.count < childrenOffset { (childrenOffset, fallbackOffset) = (fallback, nil) }
        guard entry.payload.count >= childrenOffset else {
            throw reader.error(
                at: entry.start, entry.path, "the sample entry is \(entry.payload.count) bytes, shorter than its fields (\(childrenOffset))"
            )
        }
        // A clear entry of a kind whose fields are not known here (text, metadata) is not looked into.
        guard protection.handler != .other || protection.sampleEntry.hasPrefix("enc") else { return }
        if let fallback = fallbackOffset, (try? childBoxes(of: entry, from: childrenOffset, into: protection)) == nil {
            childrenOffset = fallback
        }
        protection = try childBoxes(of: entry, from: childrenOffset, into: protection)
    }

    /// `protection` with what the sample entry's child boxes from `offset` say (its `sinf`).
    private func childBoxes(of entry: Box, from offset: Int, into protection: TrackProtection) throws(MP4FormatError) -> TrackProtection {
        var protection = protection
        var configuration: Box?
        try reader.forEachBox(in: (entry.payload.lowerBound + offset)..<entry.end, parent: entry.path) { (box) throws(MP4FormatError) in
            if box.type == FourCC("sinf"), protection.scheme == nil { try schemeInformation(box, into: &protection) }
            if configuration == nil, CodecConfiguration.boxes.contains(box.type) { configuration = box }
        }
        if let configuration {
            let format = protection.originalFormat ?? protection.sampleEntry
            protection.codec = try CodecConfiguration.codec(format: format, configuration, reader: reader)
        }
        return protection
    }

    /// `sinf`: `frma`, `schm` and `schi/tenc` (or PIFF's `uuid` tenc).
    private func schemeInformation(_ sinf: Box, into protection: inout TrackProtection) throws(MP4FormatError) {
        try reader.forEachBox(in: sinf.payload, parent: sinf.path) { (box) throws(MP4FormatError) in
            switch box.type {
            case FourCC("frma"):
                var fields = reader.fields(of: box)
                protection.originalFormat = try fields.fourCC("data_format").description
            case FourCC("schm"):
                var fields = reader.fields(of: box)
                _ = try fields.versionAndFlags()
                protection.scheme = try fields.fourCC("scheme_type").description
                protection.schemeVersion = try fields.u32("scheme_version")
            case FourCC("schi"):
                try reader.forEachBox(in: box.payload, parent: box.path) { (box) throws(MP4FormatError) in
                    if box.type == FourCC("tenc") {
                        try trackEncryption(box, into: &protection)
                    } else if box.type == FourCC("uuid"), box.userType.flatMap({ KeyID(bytes: $0) }) == PIFFBox.trackEncryption {
                        try piffTrackEncryption(box, into: &protection)
                    }
                }
            default: break
            }
        }
    }

    /// `tenc` (23001-7, 8.2).
    private func trackEncryption(_ box: Box, into protection: inout TrackProtection) throws(MP4FormatError) {
        var fields = reader.fields(of: box)
        let (version, _) = try fields.versionAndFlags()
        try fields.skip(1, "reserved")
        let pattern = try fields.u8("default_crypt_byte_block and default_skip_byte_block")
        if version > 0 { protection.pattern = (pattern >> 4, pattern & 0x0F) }
        protection.isProtected = try fields.u8("default_isProtected") != 0
        let ivSize = try fields.u8("default_Per_Sample_IV_Size")
        protection.perSampleIVSize = ivSize
        protection.defaultKID = KeyID(bytes: try fields.bytes(16, "default_KID"))
        if protection.isProtected == true, ivSize == 0 {
            let size = try fields.u8("default_constant_IV_size")
            protection.constantIV = Array(try fields.bytes(Int(size), "default_constant_IV"))
        }
    }

    /// PIFF 1.1's TrackEncryptionBox: AlgorithmID (3 bytes), IV_size, KID.
    private func piffTrackEncryption(_ box: Box, into protection: inout TrackProtection) throws(MP4FormatError) {
        var fields = reader.fields(of: box)
        _ = try fields.versionAndFlags()
        let algorithm = try fields.bytes(3, "default_AlgorithmID").reduce(0) { $0 << 8 | UInt32($1) }
        protection.isProtected = algorithm != 0
        protection.perSampleIVSize = try fields.u8("default_IV_size")
        protection.defaultKID = KeyID(bytes: try fields.bytes(16, "default_KID"))
        protection.isPIFF = true
    }

    // MARK: pssh

    /// `pssh` (23001-7, 8.1), or PIFF's, which has no key ids.
    private func protectionSystemHeader(_ box: Box, isPIFF: Bool) throws(MP4FormatError) -> ProtectionSystemHeader {
        var fields = reader.fields(of: box)
        let (version, _) = try fields.versionAndFlags()
        let systemID = KeyID(bytes: try fields.bytes(16, "SystemID"))!
        var keyIDs: [KeyID] = []
        if version > 0, !isPIFF {
            let count = try fields.u32("KID_count")
            // Checked against what is left before reading, so a claim of four billion ids costs nothing.
            guard Int(count) <= fields.remaining / 16 else {
                throw reader.error(
                    at: box.start, box.path, "KID_count \(count) needs \(UInt64(count) * 16) bytes; \(fields.remaining) are left")
            }
            for _ in 0..<count { keyIDs.append(KeyID(bytes: try fields.bytes(16, "KID"))!) }
        }
        let dataSize = try fields.u32("DataSize")
        guard Int(dataSize) <= fields.remaining else {
            throw reader.error(
                at: box.start, box.path, "DataSize \(dataSize) runs past the end of the box (\(fields.remaining) bytes left)")
        }
        return ProtectionSystemHeader(
            systemID: systemID, version: version, keyIDs: keyIDs, isPIFF: isPIFF, offset: reader.baseOffset + box.start)
    }
}
