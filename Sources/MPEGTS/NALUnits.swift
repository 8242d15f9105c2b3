/// H.264 and HEVC NAL units in Annex B byte streams (start codes `00 00 01`), and the fields of an H.264
/// sequence parameter set (ITU-T H.264 7.3.2.1.1) that `CODECS` and `RESOLUTION` describe.
enum NALUnits {
    /// The byte ranges of the NAL units in `stream` (after each start code, up to the next).
    static func units(in stream: [UInt8]) -> [Range<Int>] {
        var starts: [Int] = []
        var index = 0
        while index + 3 <= stream.count {
            if stream[index] == 0, stream[index + 1] == 0, stream[index + 2] == 1 {
                starts.append(index + 3)
                index += 3
            } else {
                index += 1
            }
        }
        var units: [Range<Int>] = []
        for (number, start) in starts.enumerated() where start < stream.count {
            var end = number + 1 < starts.count ? starts[number + 1] - 3 : stream.count
            // A four-byte start code's leading zero belongs to no unit.
            while end > start, stream[end - 1] == 0, number + 1 < starts.count { end -= 1 }
            if end > start { units.append(start..<end) }
        }
        return units
    }

    /// Profile, constraints, level and picture size of an SPS NAL unit (its header byte first); `nil` if
    /// it is cut short.
    static func sequenceParameters(_ unit: [UInt8]) -> SequenceParameters? {
        var bits = BitReader(rbsp: Array(unit.dropFirst()))
        guard let profile = bits.read(8), let constraints = bits.read(8), let level = bits.read(8) else { return nil }
        var parameters = SequenceParameters(profile: UInt8(profile), constraints: UInt8(constraints), level: UInt8(level))
        guard let size = pictureSize(&bits, profile: profile) else { return parameters }
        (parameters.width, parameters.height) = size
        return parameters
    }

    private static func pictureSize(_ bits: inout BitReader, profile: Int) -> (Int, Int)? {
        guard bits.unsigned() != nil else { return nil }  // seq_parameter_set_id
        var chromaFormat = 1
        if [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135].contains(profile) {
            guard let format = bits.unsigned() else { return nil }
            chromaFormat = format
            if format == 3 { _ = bits.read(1) }
            guard bits.unsigned() != nil, bits.unsigned() != nil, bits.read(1) != nil, let scaling = bits.read(1) else { return nil }
            if scaling == 1 {
                for list in 0..<(format == 3 ? 12 : 8) {
                    guard let present = bits.read(1) else { return nil }
                    if present == 1, !skipScalingList(&bits, size: list < 6 ? 16 : 64) { return nil }
                }
            }
        }
        guard bits.unsigned() != nil, let pocType = bits.unsigned() else { return nil }  // log2_max_frame_num_minus4
        if pocType == 0 {
            guard bits.unsigned() != nil else { return nil }
        } else if pocType == 1 {
            guard bits.read(1) != nil, bits.signed() != nil, bits.signed() != nil, let cycle = bits.unsigned(), cycle <= 255 else {
                return nil
            }
            for _ in 0..<cycle where bits.signed() == nil { return nil }
        }
        guard bits.unsigned() != nil, bits.read(1) != nil, let widthInMBs = bits.unsigned(), let heightInMapUnits = bits.unsigned(),
            let frameMBsOnly = bits.read(1)
        else { return nil }
        if frameMBsOnly == 0 { _ = bits.read(1) }
        guard bits.read(1) != nil, let cropping = bits.read(1) else { return nil }
        var crop = (left: 0, right: 0, top: 0, bottom: 0)
        if cropping == 1 {
            guard let left = bits.unsigned(), let right = bits.unsigned(), let top = bits.unsigned(), let bottom = bits.unsigned() else {
                return nil
            }
            crop = (left, right, top, bottom)
        }
        guard widthInMBs < 1 << 16, heightInMapUnits < 1 << 16 else { return nil }
        let (cropX, cropY) =
            chromaFormat == 0 ? (1, 2 - frameMBsOnly) : (chromaFormat == 3 ? 1 : 2, (chromaFormat == 1 ? 2 : 1) * (2 - frameMBsOnly))
        let width = (widthInMBs + 1) * 16 - cropX * (crop.left + crop.right)
        let height = (2 - frameMBsOnly) * (heightInMapUnits + 1) * 16 - cropY * (crop.top + crop.bottom)
        return width > 0 && height > 0 ? (width, height) : nil
    }

    private static func skipScalingList(_ bits: inout BitReader, size: Int) -> Bool {
        var last = 8
        var next = 8
        for _ in 0..<size where next != 0 {
            guard let delta = bits.signed() else { return false }
            next = (last + delta + 256) % 256
            last = next == 0 ? last : next
        }
        return true
    }
}

/// Bits of an RBSP (emulation-prevention bytes removed), with Exp-Golomb codes; every read past the end
/// answers `nil`.
struct BitReader {
    private let bytes: [UInt8]
    private var position = 0

    init(rbsp unit: [UInt8]) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(unit.count)
        var zeros = 0
        for byte in unit {
            if zeros >= 2, byte == 3 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            bytes.append(byte)
        }
        self.bytes = bytes
    }

    mutating func read(_ count: Int) -> Int? {
        guard position + count <= bytes.count * 8 else { return nil }
        var value = 0
        for _ in 0..<count {
            value = value << 1 | Int(bytes[position >> 3] >> (7 - UInt8(position & 7)) & 1)
            position += 1
        }
        return value
    }

    /// ue(v), at most 31 leading zeros.
    mutating func unsigned() -> Int? {
        var zeros = 0
        while true {
            guard let bit = read(1) else { return nil }
            if bit == 1 { break }
            zeros += 1
            if zeros > 31 { return nil }
        }
        guard let rest = read(zeros) else { return nil }
        return (1 << zeros) - 1 + rest
    }

    /// se(v).
    mutating func signed() -> Int? {
        guard let code = unsigned() else { return nil }
        return code % 2 == 1 ? (code + 1) / 2 : -(code / 2)
    }
}
