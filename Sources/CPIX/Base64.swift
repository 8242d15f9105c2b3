/// Strict base64 (RFC 4648, with padding) as `xs:base64Binary` holds it: XML whitespace between the
/// characters is allowed, anything else that is not of the alphabet is an error (`nil`), never skipped.
enum Base64 {
    static func decode(_ text: String) -> [UInt8]? {
        var values: [UInt8] = []
        var padding = 0
        for byte in text.utf8 {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D: continue
            case UInt8(ascii: "="):
                padding += 1
                continue
            default:
                guard padding == 0, let value = value(byte) else { return nil }
                values.append(value)
            }
        }
        guard (values.count + padding) % 4 == 0, padding <= 2, values.count % 4 != 1 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(values.count * 3 / 4)
        var index = 0
        while index < values.count {
            let count = min(4, values.count - index)
            var word: UInt32 = 0
            for offset in 0..<count { word |= UInt32(values[index + offset]) << (18 - 6 * UInt32(offset)) }
            for part in 0..<(count - 1) { bytes.append(UInt8(truncatingIfNeeded: word >> (16 - 8 * UInt32(part)))) }
            index += 4
        }
        return bytes
    }

    private static func value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
