/// Tells a file that is not text at all from a playlist with problems, by its first bytes: a media file
/// or other binary data given where a playlist belongs gets one finding saying so, not a finding for every
/// byte that is not HLS.
enum InputSniffer {
    /// What the input looks like when it is not a playlist (`"an MP4 file"`), or `nil` for text.
    static func binaryKind(of firstLine: UnsafeRawBufferPointer) -> String? {
        let bytes = firstLine
        if bytes.starts(with: "#EXTM3U".utf8) { return nil }
        // ISO BMFF (MP4, fMP4 init and media segments, CMAF): a 32-bit size, then the first box's type.
        if bytes.count >= 8 {
            let type = String(decoding: bytes[4..<8], as: UTF8.self)
            if ["ftyp", "styp", "moov", "moof", "sidx", "free", "mdat", "emsg"].contains(type) {
                return "an MP4 file: its first box is '\(type)'"
            }
        }
        // MPEG-TS: packets of 188 bytes that start with the sync byte 0x47, and binary inside.
        let hasBinary = bytes.contains { $0 == 0 || ($0 < 0x20 && $0 != 0x09 && $0 != 0x0D) }
        if bytes.first == 0x47, hasBinary { return "an MPEG-TS file: it starts with the sync byte 0x47" }
        if bytes.contains(0) { return "binary data: it holds NUL bytes" }
        // Other binary data: control characters throughout the first line, not the odd one a text editor let in.
        let controls = bytes.reduce(0) { $0 + (($1 < 0x20 && $1 != 0x09 && $1 != 0x0D) || $1 == 0x7F ? 1 : 0) }
        if controls >= 4, controls * 10 >= bytes.count {
            return "binary data: \(controls) control characters in its first \(bytes.count) bytes"
        }
        return nil
    }
}
