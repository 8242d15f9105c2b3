/// The codec of a sample entry as RFC 6381 (and the ISO/IEC 14496-15 and ETSI TS 102 366 annexes it
/// points to) writes it in an HLS `CODECS` attribute, from the entry's configuration box.
enum CodecConfiguration {
    /// The configuration boxes read: AVC, HEVC, MPEG-4 audio, AC-3 and E-AC-3.
    static let boxes: Set<FourCC> = [FourCC("avcC"), FourCC("hvcC"), FourCC("esds"), FourCC("dac3"), FourCC("dec3")]

    /// `format` (the sample entry's, or `frma`'s under protection) with what `box` says of profile and level.
    static func codec(format: String, _ box: Box, reader: BoxReader) throws(MP4FormatError) -> String? {
        var fields = reader.fields(of: box)
        switch box.type {
        case FourCC("avcC"):
            // 14496-15 5.3.3.1: configurationVersion, AVCProfileIndication, profile_compatibility, AVCLevelIndication.
            try fields.skip(1, "configurationVersion")
            let profile = try fields.u8("AVCProfileIndication")
            let compatibility = try fields.u8("profile_compatibility")
            let level = try fields.u8("AVCLevelIndication")
            return format + "." + KeyID.hex([profile, compatibility, level])
        case FourCC("hvcC"):
            return try hevc(format: format, &fields)
        case FourCC("esds"):
            return try mpeg4Audio(format: format, &fields, reader: reader, box: box)
        case FourCC("dac3"):
            return "ac-3"
        case FourCC("dec3"):
            return "ec-3"
        default:
            return nil
        }
    }

    /// 14496-15 E.3: `hvc1.[A|B|C]profile.compatibility.[L|H]level.constraints`, the compatibility flags
    /// with their bits reversed, in hexadecimal without leading zeros, the constraint bytes up to the last
    /// one that is not zero.
    private static func hevc(format: String, _ fields: inout FieldCursor) throws(MP4FormatError) -> String {
        try fields.skip(1, "configurationVersion")
        let first = try fields.u8("general_profile_space, general_tier_flag and general_profile_idc")
        let compatibility = try fields.u32("general_profile_compatibility_flags")
        let constraints = Array(try fields.bytes(6, "general_constraint_indicator_flags"))
        let level = try fields.u8("general_level_idc")
        let space = ["", "A", "B", "C"][Int(first >> 6)]
        var reversed: UInt32 = 0
        for bit in 0..<32 where compatibility & (1 << UInt32(bit)) != 0 { reversed |= 1 << UInt32(31 - bit) }
        var text = "\(format).\(space)\(first & 0x1F).\(String(reversed, radix: 16, uppercase: true))"
        text += ".\(first & 0x20 != 0 ? "H" : "L")\(level)"
        let kept = constraints.lastIndex { $0 != 0 }.map { constraints[...$0] } ?? []
        for byte in kept { text += "." + String(byte, radix: 16, uppercase: true) }
        return text
    }

    /// `esds` (14496-1 7.2.6.5 and 14496-3 1.6.2.1): `mp4a.<objectTypeIndication>.<audioObjectType>`, the
    /// first in hexadecimal, the second in decimal.
    private static func mpeg4Audio(
        format: String, _ fields: inout FieldCursor, reader: BoxReader, box: Box
    ) throws(MP4FormatError) -> String? {
        _ = try fields.versionAndFlags()
        // ES_Descriptor (tag 3): ES_ID, flags, and what the flags announce; then its DecoderConfigDescriptor.
        guard try descriptor(&fields) == 3 else { return nil }
        try fields.skip(2, "ES_ID")
        let flags = try fields.u8("ES_Descriptor flags")
        if flags & 0x80 != 0 { try fields.skip(2, "dependsOn_ES_ID") }
        if flags & 0x40 != 0 { try fields.skip(Int(try fields.u8("URLlength")), "URLstring") }
        if flags & 0x20 != 0 { try fields.skip(2, "OCR_ES_Id") }
        guard try descriptor(&fields) == 4 else { return nil }
        let objectType = try fields.u8("objectTypeIndication")
        try fields.skip(12, "streamType, bufferSizeDB, maxBitrate and avgBitrate")
        var text = "\(format).\(KeyID.hex([objectType]))"
        // AudioSpecificConfig (tag 5): audioObjectType in 5 bits, or 31 and 6 bits more.
        guard objectType == 0x40, fields.remaining > 0, try descriptor(&fields) == 5 else { return text }
        let first = try fields.u8("audioObjectType")
        var audioObjectType = Int(first >> 3)
        if audioObjectType == 31 {
            let second = try fields.u8("audioObjectTypeExt")
            audioObjectType = 32 + Int((first & 0x07) << 3 | second >> 5)
        }
        text += ".\(audioObjectType)"
        return text
    }

    /// A descriptor's tag, its size (up to four bytes of 7 bits) read past.
    private static func descriptor(_ fields: inout FieldCursor) throws(MP4FormatError) -> UInt8 {
        let tag = try fields.u8("descriptor tag")
        var sizeBytes = 0
        var more = true
        while more, sizeBytes < 4 {
            more = try fields.u8("descriptor size") & 0x80 != 0
            sizeBytes += 1
        }
        return tag
    }
}
