/// Reads the top-level boxes of a media segment through `read`, parsing what describes the samples
/// (`moof`, and `styp`/`sidx` by name only) and skipping the rest (`mdat`) by its size.
struct MediaSegmentWalk {
    /// The largest `moof` read: a fragment's description is kilobytes; its samples are in `mdat`.
    static let moofLimit = 16 << 20
    /// The most top-level boxes read: a segment of millions of empty boxes is refused, not walked.
    static let boxLimit = 100_000

    /// Reads `length` bytes at `offset` of the segment (offsets from its start); the walk never asks
    /// for more than the segment holds.
    let read: (_ offset: Int, _ length: Int) throws(MP4FormatError) -> [UInt8]
    let size: Int
    /// Where the segment starts in its file, for messages.
    let baseOffset: Int
    let defaults: [FragmentDefaults]
    var segment = MediaSegment()

    init(size: Int, baseOffset: Int, defaults: [FragmentDefaults], read: @escaping (Int, Int) throws(MP4FormatError) -> [UInt8]) {
        self.size = size
        self.baseOffset = baseOffset
        self.defaults = defaults
        self.read = read
        segment.size = size
    }

    mutating func run() throws(MP4FormatError) -> MediaSegment {
        var position = 0
        while position < size {
            guard segment.topLevelBoxes.count < Self.boxLimit else {
                throw MP4FormatError(offset: baseOffset + position, boxPath: [], reason: "more than \(Self.boxLimit) top-level boxes")
            }
            let header = try self.header(at: position)
            segment.topLevelBoxes.append(header.type.description)
            if header.type == FourCC("moof") {
                guard header.size <= Self.moofLimit else {
                    throw MP4FormatError(
                        offset: baseOffset + position, boxPath: ["moof"],
                        reason: "\(header.size) bytes, more than the \(Self.moofLimit)-byte limit for a movie fragment's boxes")
                }
                let bytes = try read(position, header.size)
                segment.bytesRead += header.size
                var fragment = FragmentWalk(reader: BoxReader(bytes: bytes, baseOffset: baseOffset + position), defaults: defaults)
                segment.fragments.append(try fragment.run(offset: baseOffset + position))
            }
            position += header.size
        }
        if segment.topLevelBoxes.isEmpty {
            throw MP4FormatError(offset: baseOffset, boxPath: [], reason: "the segment is empty")
        }
        return segment
    }

    /// The type and size of the box at `position`, checked to end within the segment.
    private mutating func header(at position: Int) throws(MP4FormatError) -> (type: FourCC, size: Int) {
        let left = size - position
        guard left >= 8 else {
            throw MP4FormatError(
                offset: baseOffset + position, boxPath: [], reason: "\(left) bytes left where a box header (8 bytes) should start")
        }
        let bytes = try read(position, min(16, left))
        segment.bytesRead += bytes.count
        let reader = BoxReader(bytes: bytes, baseOffset: baseOffset + position)
        let type = FourCC(reader.u32(at: 4))
        var boxSize = UInt64(reader.u32(at: 0))
        var headerSize = 8
        if boxSize == 1 {
            guard bytes.count >= 16 else {
                throw reader.error(at: 0, [type.description], "a 64-bit size is announced but only \(left) bytes are left")
            }
            boxSize = reader.u64(at: 8)
            headerSize = 16
        } else if boxSize == 0 {
            boxSize = UInt64(left)
        }
        guard boxSize >= UInt64(headerSize) else {
            throw reader.error(at: 0, [type.description], "its size \(boxSize) is smaller than its own header (\(headerSize) bytes)")
        }
        guard boxSize <= UInt64(left) else {
            throw reader.error(at: 0, [type.description], "its size \(boxSize) runs past the end of the segment (\(left) bytes left)")
        }
        return (type, Int(boxSize))
    }
}

/// The boxes of one `moof`: `mfhd` and each `traf` (`tfhd`, `tfdt`, `trun`, `senc`, `saiz`, `sbgp`,
/// `sgpd`), each field checked against its box.
private struct FragmentWalk {
    let reader: BoxReader
    let defaults: [FragmentDefaults]

    mutating func run(offset: Int) throws(MP4FormatError) -> MovieFragment {
        var fragment = MovieFragment(offset: offset)
        let moof = try topBox()
        try reader.forEachBox(in: moof.payload, parent: moof.path) { (box) throws(MP4FormatError) in
            switch box.type {
            case FourCC("mfhd"):
                var fields = reader.fields(of: box)
                _ = try fields.versionAndFlags()
                fragment.sequenceNumber = try fields.u32("sequence_number")
            case FourCC("traf"):
                fragment.tracks.append(try trackFragment(box))
            default: break
            }
        }
        return fragment
    }

    private func topBox() throws(MP4FormatError) -> Box {
        var found: Box?
        try reader.forEachBox(in: 0..<reader.bytes.count, parent: []) { (box) throws(MP4FormatError) in
            if found == nil { found = box }
        }
        return found!
    }

    /// What `tfhd` leaves to the samples.
    private struct Header {
        var trackID: UInt32
        var sampleDescriptionIndex: UInt32
        var sampleDuration: UInt32?
        var sampleSize: UInt32?
        var sampleFlags: UInt32?
    }

    private func trackFragment(_ traf: Box) throws(MP4FormatError) -> TrackFragment {
        var header: Header?
        var run: TrackFragment?
        var sampleToGroup: Box?
        try reader.forEachBox(in: traf.payload, parent: traf.path) { (box) throws(MP4FormatError) in
            if box.type == FourCC("tfhd") {
                header = try trackFragmentHeader(box)
                run = TrackFragment(trackID: header!.trackID)
                run!.sampleDescriptionIndex = header!.sampleDescriptionIndex
                return
            }
            guard let header, run != nil else {
                throw reader.error(at: box.start, box.path, "a track fragment's boxes come after its 'tfhd', which is missing")
            }
            switch box.type {
            case FourCC("tfdt"):
                var fields = reader.fields(of: box)
                let (version, _) = try fields.versionAndFlags()
                let high = version == 1 ? UInt64(try fields.u32("baseMediaDecodeTime")) << 32 : 0
                run!.baseMediaDecodeTime = high | UInt64(try fields.u32("baseMediaDecodeTime"))
            case FourCC("trun"):
                try trackRun(box, header: header, into: &run!)
            case FourCC("senc"):
                var fields = reader.fields(of: box)
                let (_, flags) = try fields.versionAndFlags()
                run!.sampleEncryption = (Int(try fields.u32("sample_count")), flags & 0x2 != 0)
            case FourCC("saiz"):
                var fields = reader.fields(of: box)
                let (_, flags) = try fields.versionAndFlags()
                if flags & 1 != 0 { try fields.skip(8, "aux_info_type and aux_info_type_parameter") }
                try fields.skip(1, "default_sample_info_size")
                run!.auxiliaryInfoCount = Int(try fields.u32("sample_count"))
            case FourCC("sgpd"):
                run!.encryptionGroups += try sampleGroupDescriptions(box)
            case FourCC("sbgp"):
                sampleToGroup = box
            default: break
            }
        }
        guard var run else { throw reader.error(at: traf.start, traf.path, "the track fragment has no 'tfhd'") }
        if let sampleToGroup { run.encryptionGroupRuns = try sampleGroupRuns(sampleToGroup) }
        return run
    }

    /// `tfhd` (14496-12, 8.8.7), with the init segment's `trex` under what it leaves out.
    private func trackFragmentHeader(_ box: Box) throws(MP4FormatError) -> Header {
        var fields = reader.fields(of: box)
        let (_, flags) = try fields.versionAndFlags()
        let trackID = try fields.u32("track_ID")
        let trex = defaults.first { $0.trackID == trackID }
        var header = Header(
            trackID: trackID, sampleDescriptionIndex: trex?.sampleDescriptionIndex ?? 1, sampleDuration: trex?.sampleDuration,
            sampleSize: trex?.sampleSize, sampleFlags: trex?.sampleFlags)
        if flags & 0x01 != 0 { try fields.skip(8, "base_data_offset") }
        if flags & 0x02 != 0 { header.sampleDescriptionIndex = try fields.u32("sample_description_index") }
        if flags & 0x08 != 0 { header.sampleDuration = try fields.u32("default_sample_duration") }
        if flags & 0x10 != 0 { header.sampleSize = try fields.u32("default_sample_size") }
        if flags & 0x20 != 0 { header.sampleFlags = try fields.u32("default_sample_flags") }
        return header
    }

    /// `trun` (8.8.8): its samples added to `run`, each field of each sample checked to be in the box
    /// before any is read.
    private func trackRun(_ box: Box, header: Header, into run: inout TrackFragment) throws(MP4FormatError) {
        var fields = reader.fields(of: box)
        let (_, flags) = try fields.versionAndFlags()
        let count = Int(try fields.u32("sample_count"))
        if flags & 0x001 != 0 { try fields.skip(4, "data_offset") }
        let firstFlags: UInt32? = flags & 0x004 != 0 ? try fields.u32("first_sample_flags") : nil
        let hasDuration = flags & 0x100 != 0
        let hasSize = flags & 0x200 != 0
        let hasFlags = flags & 0x400 != 0
        let hasOffset = flags & 0x800 != 0
        let perSample = (hasDuration ? 4 : 0) + (hasSize ? 4 : 0) + (hasFlags ? 4 : 0) + (hasOffset ? 4 : 0)
        guard perSample == 0 || count <= fields.remaining / perSample else {
            throw reader.error(
                at: box.start, box.path,
                "sample_count \(count) needs \(count * perSample) bytes of sample fields; \(fields.remaining) are left")
        }
        let isFirstRun = run.sampleCount == 0
        var firstOwnFlags: UInt32?
        if perSample == 0 {
            run.duration = Self.sum(run.duration, header.sampleDuration, times: count)
            run.dataSize = Self.sum(run.dataSize.map(UInt64.init), header.sampleSize, times: count).flatMap { Int(exactly: $0) }
        }
        for index in 0..<(perSample == 0 ? 0 : count) {
            let duration = hasDuration ? try fields.u32("sample_duration") : header.sampleDuration
            let size = hasSize ? try fields.u32("sample_size") : header.sampleSize
            let sampleFlags = hasFlags ? try fields.u32("sample_flags") : nil
            if hasOffset { try fields.skip(4, "sample_composition_time_offset") }
            run.duration = Self.sum(run.duration, duration, times: 1)
            run.dataSize = Self.sum(run.dataSize.map(UInt64.init), size, times: 1).flatMap { Int(exactly: $0) }
            if index == 0 { firstOwnFlags = sampleFlags }
        }
        if isFirstRun, count > 0 { run.firstSampleFlags = firstFlags ?? firstOwnFlags ?? header.sampleFlags }
        run.sampleCount += count
    }

    /// `total` plus `count` times `value`; `nil` when either is unknown or the sum overflows (a hostile
    /// count: unknown, not a crash).
    private static func sum(_ total: UInt64?, _ value: UInt32?, times count: Int) -> UInt64? {
        guard let total, let value else { return nil }
        let (product, overflow) = UInt64(value).multipliedReportingOverflow(by: UInt64(count))
        guard !overflow else { return nil }
        let (sum, overflowSum) = total.addingReportingOverflow(product)
        return overflowSum ? nil : sum
    }

    /// `sgpd` (8.9.3) of grouping type `seig` (23001-7, 10.1); another type's are passed over.
    private func sampleGroupDescriptions(_ box: Box) throws(MP4FormatError) -> [SampleEncryptionGroup] {
        var fields = reader.fields(of: box)
        let (version, _) = try fields.versionAndFlags()
        guard try fields.fourCC("grouping_type") == FourCC("seig") else { return [] }
        let defaultLength = version == 1 ? Int(try fields.u32("default_length")) : 0
        if version >= 2 { try fields.skip(4, "default_sample_description_index") }
        let count = Int(try fields.u32("entry_count"))
        // A `seig` entry is at least 20 bytes.
        guard count <= fields.remaining / 20 else {
            throw reader.error(
                at: box.start, box.path, "entry_count \(count) needs at least \(count * 20) bytes; \(fields.remaining) are left")
        }
        var groups: [SampleEncryptionGroup] = []
        for _ in 0..<count {
            let length = version == 1 && defaultLength == 0 ? Int(try fields.u32("description_length")) : defaultLength
            let start = fields.position
            try fields.skip(1, "reserved")
            let pattern = try fields.u8("crypt_byte_block and skip_byte_block")
            let isProtected = try fields.u8("isProtected") != 0
            let ivSize = try fields.u8("Per_Sample_IV_Size")
            let keyID = KeyID(bytes: try fields.bytes(16, "KID"))!
            var constantIV: [UInt8]?
            if isProtected, ivSize == 0 {
                let size = try fields.u8("constant_IV_size")
                constantIV = Array(try fields.bytes(Int(size), "constant_IV"))
            }
            if length > 0 { try fields.skip(max(0, length - (fields.position - start)), "the rest of the description") }
            groups.append(
                SampleEncryptionGroup(
                    isProtected: isProtected, keyID: keyID, perSampleIVSize: ivSize, pattern: (pattern >> 4, pattern & 0x0F),
                    constantIV: constantIV))
        }
        return groups
    }

    /// `sbgp` (8.9.2) of grouping type `seig`.
    private func sampleGroupRuns(_ box: Box) throws(MP4FormatError) -> [(sampleCount: Int, groupIndex: UInt32)] {
        var fields = reader.fields(of: box)
        let (version, _) = try fields.versionAndFlags()
        guard try fields.fourCC("grouping_type") == FourCC("seig") else { return [] }
        if version == 1 { try fields.skip(4, "grouping_type_parameter") }
        let count = Int(try fields.u32("entry_count"))
        guard count <= fields.remaining / 8 else {
            throw reader.error(at: box.start, box.path, "entry_count \(count) needs \(count * 8) bytes; \(fields.remaining) are left")
        }
        var runs: [(sampleCount: Int, groupIndex: UInt32)] = []
        for _ in 0..<count {
            runs.append((Int(try fields.u32("sample_count")), try fields.u32("group_description_index")))
        }
        return runs
    }
}
