/// Writes small fMP4 init segments box by box (ISO/IEC 14496-12 and 23001-7), for tests that need media
/// with chosen key ids and schemes: a video or audio track, clear or protected (`cbcs` with a constant IV
/// and a 1:9 pattern, or `cenc` with 8-byte per-sample IVs), and `pssh` boxes.
public enum InitSegmentMaker {
    public enum Track: Sendable {
        case video(width: Int, height: Int)
        case audio(channels: Int)
    }

    /// A whole init segment: `ftyp` then `moov` with one track. `kid` is 16 bytes; `scheme` nil for clear.
    public static func segment(_ track: Track, scheme: String?, kid: [UInt8], psshSystems: [[UInt8]] = []) -> [UInt8] {
        let ftyp = box("ftyp", Array("iso6".utf8) + u32(0) + Array("iso6cmfc".utf8))
        let mvhd = box("mvhd", [UInt8](repeating: 0, count: 100))
        let pssh = psshSystems.map { box("pssh", [1, 0, 0, 0] + $0 + u32(1) + kid + u32(0)) }.flatMap { $0 }
        return ftyp + box("moov", mvhd + trak(track, scheme: scheme, kid: kid) + pssh)
    }

    static func trak(_ track: Track, scheme: String?, kid: [UInt8]) -> [UInt8] {
        let tkhd = box("tkhd", [0, 0, 0, 7] + u32(0) + u32(0) + u32(1) + [UInt8](repeating: 0, count: 68))
        let handler: String
        let entry: [UInt8]
        switch track {
        case .video(let width, let height):
            handler = "vide"
            let fields =
                [UInt8](repeating: 0, count: 6) + u16(1) + [UInt8](repeating: 0, count: 16) + u16(width) + u16(height)
                + [UInt8](repeating: 0, count: 50)
            // avcC: version 1, High profile (0x64), level 3.1 (0x1f), no parameter sets.
            let avcC = box("avcC", [1, 0x64, 0x00, 0x1F, 0xFF, 0xE0, 0x00])
            entry = sampleEntry(scheme == nil ? "avc1" : "encv", fields: fields + avcC, original: "avc1", scheme: scheme, kid: kid)
        case .audio(let channels):
            handler = "soun"
            let fields =
                [UInt8](repeating: 0, count: 6) + u16(1) + [UInt8](repeating: 0, count: 8) + u16(channels) + u16(16)
                + u32(0) + u32(48000 << 16)
            entry = sampleEntry(scheme == nil ? "mp4a" : "enca", fields: fields, original: "mp4a", scheme: scheme, kid: kid)
        }
        let hdlr = box("hdlr", u32(0) + u32(0) + Array(handler.utf8) + [UInt8](repeating: 0, count: 13))
        // Version 0: times, timescale (90 kHz video, 48 kHz audio), duration, language.
        let timescale = handler == "vide" ? 90000 : 48000
        let mdhd = box("mdhd", u32(0) + u32(0) + u32(0) + u32(timescale) + u32(0) + u32(0))
        let stsd = box("stsd", u32(0) + u32(1) + entry)
        return box("trak", tkhd + box("mdia", mdhd + hdlr + box("minf", box("stbl", stsd))))
    }

    static func sampleEntry(_ type: String, fields: [UInt8], original: String, scheme: String?, kid: [UInt8]) -> [UInt8] {
        guard let scheme else { return box(type, fields) }
        let tenc: [UInt8] =
            scheme == "cbcs"
            ? box("tenc", [1, 0, 0, 0] + [0, 0x19, 1, 0] + kid + [16] + kid)
            : box("tenc", u32(0) + [0, 0, 1, 8] + kid)
        let sinf = box(
            "sinf", box("frma", Array(original.utf8)) + box("schm", u32(0) + Array(scheme.utf8) + u32(0x10000)) + box("schi", tenc))
        return box(type, fields + sinf)
    }

    public static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { u32(8 + payload.count) + Array(type.utf8) + payload }
    static func u32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
    static func u16(_ value: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)] }
}
