/// What the boxes of an fMP4 media segment say of its samples: for each movie fragment (`moof`) and each
/// of its track fragments (`traf`), the decode time, the samples' count, durations and sizes, whether the
/// first is a sync sample, and how they are encrypted (`senc`, `saiz`/`saio`, and the `seig` sample groups
/// of `sbgp` and `sgpd`, with their key ids and patterns).
///
/// The sample data (`mdat`) is never read: ``MediaSegmentFile`` reads each top-level box's header and
/// skips over what it does not need, so a segment costs its `moof` boxes, not its size.
public struct MediaSegment: Sendable, Equatable {
    /// The types of the top-level boxes, in order (`styp`, `sidx`, `moof`, `mdat`…).
    public var topLevelBoxes: [String] = []
    public var fragments: [MovieFragment] = []
    /// The bytes of the segment (its byte range, or the file).
    public var size = 0
    /// The bytes read of it: box headers and the boxes parsed.
    public var bytesRead = 0

    public init() {}

    /// The track fragments of `trackID`, in order.
    public func runs(of trackID: UInt32) -> [TrackFragment] {
        fragments.flatMap { $0.tracks.filter { $0.trackID == trackID } }
    }
}

/// One `moof`.
public struct MovieFragment: Sendable, Equatable {
    /// Where its `moof` starts in the file.
    public var offset: Int
    /// `mfhd` sequence_number.
    public var sequenceNumber: UInt32?
    public var tracks: [TrackFragment] = []

    public init(offset: Int) { self.offset = offset }
}

/// One `traf`: a track's samples in a fragment, with the defaults of `tfhd` and of the init segment's
/// `trex` applied.
public struct TrackFragment: Sendable, Equatable {
    public var trackID: UInt32
    /// Which of the track's sample entries (from 1) its samples use: `tfhd`'s, or `trex`'s default.
    public var sampleDescriptionIndex: UInt32 = 1
    /// `tfdt` baseMediaDecodeTime, in the track's timescale.
    public var baseMediaDecodeTime: UInt64?
    /// The samples of its `trun` boxes.
    public var sampleCount = 0
    /// The sum of the samples' durations, in the track's timescale; `nil` when a duration is given by
    /// nothing (no `trun`, `tfhd` or `trex` value).
    public var duration: UInt64? = 0
    /// The sum of the samples' sizes in bytes; `nil` when a size is given by nothing.
    public var dataSize: Int? = 0
    /// The first sample's flags (14496-12, 8.8.3.1), from `trun` (first_sample_flags or the sample's
    /// own), `tfhd` or `trex`; `nil` when nothing gives them.
    public var firstSampleFlags: UInt32?
    /// `senc` sample_count and whether it lists subsamples; `nil` without `senc`.
    public var sampleEncryption: (sampleCount: Int, hasSubsamples: Bool)?
    /// `saiz` sample_count; `nil` without `saiz`.
    public var auxiliaryInfoCount: Int?
    /// The fragment's own `seig` sample group descriptions (`sgpd`), in order.
    public var encryptionGroups: [SampleEncryptionGroup] = []
    /// `sbgp` for `seig`: runs of samples and the group description each uses (0: none, the track's
    /// default; from 0x10001: the fragment's own ``encryptionGroups``; else the init segment's).
    public var encryptionGroupRuns: [(sampleCount: Int, groupIndex: UInt32)] = []

    public init(trackID: UInt32) { self.trackID = trackID }

    /// Whether the first sample is a sync sample: sample_is_non_sync_sample clear (8.8.3.1).
    public var startsWithSyncSample: Bool? { firstSampleFlags.map { $0 & 0x0001_0000 == 0 } }

    /// How many samples are protected, with `trackDefault` (`tenc` default_isProtected) for samples no
    /// `seig` group of the fragment describes.
    public func protectedSampleCount(trackDefault: Bool) -> Int {
        var counted = 0
        var protected = 0
        for run in encryptionGroupRuns {
            let count = min(run.sampleCount, sampleCount - counted)
            guard count > 0 else { break }
            counted += count
            if let group = group(run.groupIndex) {
                if group.isProtected { protected += count }
            } else if trackDefault {
                protected += count
            }
        }
        if trackDefault { protected += sampleCount - counted }
        return protected
    }

    /// The key ids the fragment's samples use: its `seig` groups' for the samples they describe, and
    /// `trackDefault` (`tenc` default_KID) for the others, when protected.
    public func keyIDs(trackDefault: KeyID?, trackProtected: Bool) -> [KeyID] {
        var ids: [KeyID] = []
        var counted = 0
        for run in encryptionGroupRuns where run.sampleCount > 0 {
            counted += run.sampleCount
            if let group = group(run.groupIndex) {
                if group.isProtected, !ids.contains(group.keyID) { ids.append(group.keyID) }
            } else if trackProtected, let trackDefault, !ids.contains(trackDefault) {
                ids.append(trackDefault)
            }
        }
        if counted < sampleCount, trackProtected, let trackDefault, !ids.contains(trackDefault) { ids.append(trackDefault) }
        return ids
    }

    /// The fragment's own group description `index` refers to (14496-12, 8.9.4: from 0x10001).
    private func group(_ index: UInt32) -> SampleEncryptionGroup? {
        guard index > 0x10000 else { return nil }
        let local = Int(index - 0x10001)
        return local < encryptionGroups.count ? encryptionGroups[local] : nil
    }

    public static func == (lhs: TrackFragment, rhs: TrackFragment) -> Bool {
        lhs.trackID == rhs.trackID && lhs.sampleDescriptionIndex == rhs.sampleDescriptionIndex
            && lhs.baseMediaDecodeTime == rhs.baseMediaDecodeTime && lhs.sampleCount == rhs.sampleCount
            && lhs.duration == rhs.duration && lhs.dataSize == rhs.dataSize && lhs.firstSampleFlags == rhs.firstSampleFlags
            && lhs.sampleEncryption?.sampleCount == rhs.sampleEncryption?.sampleCount
            && lhs.sampleEncryption?.hasSubsamples == rhs.sampleEncryption?.hasSubsamples
            && lhs.auxiliaryInfoCount == rhs.auxiliaryInfoCount && lhs.encryptionGroups == rhs.encryptionGroups
            && lhs.encryptionGroupRuns.elementsEqual(rhs.encryptionGroupRuns) { $0 == $1 }
    }
}

/// A `seig` sample group description (23001-7, 10.1): how the samples mapped to it are encrypted.
public struct SampleEncryptionGroup: Sendable, Equatable {
    public var isProtected: Bool
    public var keyID: KeyID
    public var perSampleIVSize: UInt8
    /// crypt_byte_block and skip_byte_block (the pattern of cbcs and cens).
    public var pattern: (crypt: UInt8, skip: UInt8)
    public var constantIV: [UInt8]?

    public init(isProtected: Bool, keyID: KeyID, perSampleIVSize: UInt8, pattern: (crypt: UInt8, skip: UInt8), constantIV: [UInt8]?) {
        self.isProtected = isProtected
        self.keyID = keyID
        self.perSampleIVSize = perSampleIVSize
        self.pattern = pattern
        self.constantIV = constantIV
    }

    public static func == (lhs: SampleEncryptionGroup, rhs: SampleEncryptionGroup) -> Bool {
        lhs.isProtected == rhs.isProtected && lhs.keyID == rhs.keyID && lhs.perSampleIVSize == rhs.perSampleIVSize
            && lhs.pattern.crypt == rhs.pattern.crypt && lhs.pattern.skip == rhs.pattern.skip && lhs.constantIV == rhs.constantIV
    }
}
