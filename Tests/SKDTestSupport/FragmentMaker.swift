/// Writes small fMP4 media segments box by box (ISO/IEC 14496-12 8.8, 23001-7): one `moof` and `mdat` per
/// fragment of track 1, with chosen decode time, sample durations, first-sample sync, sample entry,
/// `senc`, and a `seig` sample group naming a key id, for tests of what segments say.
public enum FragmentMaker {
    public struct Fragment: Sendable {
        public var decodeTime: UInt64
        public var sampleCount: Int
        public var sampleDuration: UInt32
        public var startsWithSync = true
        /// `tfhd` sample_description_index, when written.
        public var sampleDescriptionIndex: UInt32?
        /// Whether a `senc` lists the samples (as protected samples have).
        public var encrypted = true
        /// A `seig` group covering every sample: its key id, and whether it marks them protected.
        public var group: (kid: [UInt8], isProtected: Bool)?
        /// The group's crypt and skip blocks.
        public var groupPattern: UInt8 = 0x19

        public init(decodeTime: UInt64, sampleCount: Int, sampleDuration: UInt32) {
            self.decodeTime = decodeTime
            self.sampleCount = sampleCount
            self.sampleDuration = sampleDuration
        }
    }

    /// `styp`, then each fragment's `moof` and `mdat` (ten bytes a sample).
    public static func segment(_ fragments: [Fragment]) -> [UInt8] {
        var bytes = box("styp", Array("msdh".utf8) + u32(0) + Array("msdhmsix".utf8))
        for (number, fragment) in fragments.enumerated() {
            bytes += moof(fragment, sequence: number + 1) + box("mdat", [UInt8](repeating: 0xAB, count: 10 * fragment.sampleCount))
        }
        return bytes
    }

    static func moof(_ fragment: Fragment, sequence: Int) -> [UInt8] {
        var tfhdFlags = 0x02_0000
        var tfhdFields = u32(1)
        if let index = fragment.sampleDescriptionIndex {
            tfhdFlags |= 0x02
            tfhdFields += u32(Int(index))
        }
        let tfhd = box("tfhd", u32(tfhdFlags) + tfhdFields)
        let tfdt = box("tfdt", [1, 0, 0, 0] + u32(Int(fragment.decodeTime >> 32)) + u32(Int(fragment.decodeTime & 0xFFFF_FFFF)))
        let firstFlags = fragment.startsWithSync ? 0x0200_0000 : 0x0101_0000
        var samples: [UInt8] = []
        for _ in 0..<fragment.sampleCount { samples += u32(Int(fragment.sampleDuration)) + u32(10) }
        // data_offset, first_sample_flags, sample_duration and sample_size.
        let trun = box("trun", u32(0x305) + u32(fragment.sampleCount) + u32(0) + u32(firstFlags) + samples)
        var traf = tfhd + tfdt + trun
        if fragment.encrypted { traf += box("senc", u32(0) + u32(fragment.sampleCount)) }
        if let group = fragment.group {
            // sgpd version 1: reserved, the pattern, isProtected, IV size 0 (constant IV 16 bytes).
            let entry: [UInt8] =
                [0, fragment.groupPattern, group.isProtected ? 1 : 0, 0] + group.kid + (group.isProtected ? [16] + group.kid : [])
            traf += box("sgpd", [1, 0, 0, 0] + Array("seig".utf8) + u32(entry.count) + u32(1) + entry)
            traf += box("sbgp", u32(0) + Array("seig".utf8) + u32(1) + u32(fragment.sampleCount) + u32(0x10001))
        }
        return box("moof", box("mfhd", u32(0) + u32(sequence)) + box("traf", traf))
    }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { u32(8 + payload.count) + Array(type.utf8) + payload }
    static func u32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
}

/// Writes a small MPEG-TS segment packet by packet (ISO/IEC 13818-1): a PAT, a PMT with one H.264 stream
/// (PID 0x101), and one PES packet with a PTS and an access unit delimiter and IDR slice header.
public enum TransportMaker {
    public static func segment(pts: UInt64 = 0) -> [UInt8] {
        func packet(pid: UInt16, start: Bool, _ payload: [UInt8]) -> [UInt8] {
            let header: [UInt8] = [0x47, (start ? 0x40 : 0) | UInt8(pid >> 8), UInt8(pid & 0xFF), 0x10]
            return header + payload + [UInt8](repeating: 0xFF, count: 184 - payload.count)
        }
        let pat: [UInt8] = [0, 0x00, 0xB0, 0x0D, 0x00, 0x01, 0xC1, 0x00, 0x00, 0x00, 0x01, 0xE1, 0x00, 0, 0, 0, 0]
        let pmt: [UInt8] = [
            0, 0x02, 0xB0, 0x12, 0x00, 0x01, 0xC1, 0x00, 0x00, 0xE1, 0x01, 0xF0, 0x00, 0x1B, 0xE1, 0x01, 0xF0, 0x00, 0, 0, 0, 0,
        ]
        let stamp: [UInt8] = [
            0x21 | UInt8((pts >> 29) & 0x0E), UInt8((pts >> 22) & 0xFF), UInt8((pts >> 14) & 0xFE) | 1, UInt8((pts >> 7) & 0xFF),
            UInt8((pts << 1) & 0xFE) | 1,
        ]
        let pes: [UInt8] = [0, 0, 1, 0xE0, 0, 0, 0x80, 0x80, 5] + stamp + [0, 0, 1, 0x09, 0xF0, 0, 0, 1, 0x65, 0x88, 0x84]
        return packet(pid: 0, start: true, pat) + packet(pid: 0x100, start: true, pmt) + packet(pid: 0x101, start: true, pes)
    }
}
