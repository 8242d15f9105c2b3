/// Number grammars of RFC 8216 section 4.2, read straight from bytes without building a `String`.
public enum NumberParsing {
    /// A decimal-integer: 1 to 20 digits, at most 2^64-1.
    public static func decimalInteger<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt64? {
        guard !bytes.isEmpty, bytes.count <= 20 else { return nil }
        var value: UInt64 = 0
        for byte in bytes {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(byte - 0x30))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
        }
        return value
    }

    /// A decimal-floating-point (`signed: false`) or signed-decimal-floating-point: digits with at most
    /// one `.`, and for the signed form an optional leading `-`.
    ///
    /// Short values (the common case: `6.006`) are computed exactly from an integer mantissa; anything
    /// longer goes through the standard library's correctly rounded parser.
    ///
    /// Inlinable: another module's call (validate reads every segment's EXTINF) would otherwise run it
    /// unspecialised, through the collection's witnesses, at ten times the cost.
    @inlinable
    public static func decimalFloat<Bytes: Collection<UInt8>>(_ bytes: Bytes, signed: Bool) -> Double? {
        var digits = 0
        var fractionDigits = 0
        var sawPoint = false
        var negative = false
        var mantissa: UInt64 = 0
        var index = bytes.startIndex
        if signed, index != bytes.endIndex, bytes[index] == UInt8(ascii: "-") {
            negative = true
            index = bytes.index(after: index)
        }
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                guard !sawPoint else { return nil }
                sawPoint = true
            } else if byte >= 0x30, byte <= 0x39 {
                digits += 1
                if sawPoint { fractionDigits += 1 }
                if digits <= 18 { mantissa = mantissa * 10 + UInt64(byte - 0x30) }
            } else {
                return nil
            }
            index = bytes.index(after: index)
        }
        guard digits > 0 else { return nil }
        let magnitude: Double
        if digits <= 15, fractionDigits <= 22 {
            magnitude = Double(mantissa) / powersOfTen[fractionDigits]
        } else {
            let text = String(decoding: bytes, as: UTF8.self)
            guard let parsed = Double(negative ? String(text.dropFirst()) : text) else { return nil }
            magnitude = parsed
        }
        return negative ? -magnitude : magnitude
    }

    /// Whether `bytes` is a hexadecimal-sequence: `0x` or `0X`, then at least one hex digit.
    public static func isHexadecimalSequence<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        guard bytes.count > 2, bytes.first == UInt8(ascii: "0") else { return false }
        let marker = bytes[bytes.index(after: bytes.startIndex)]
        guard marker == UInt8(ascii: "x") || marker == UInt8(ascii: "X") else { return false }
        return bytes.dropFirst(2).allSatisfy(isHexDigit)
    }

    /// The digits of a hexadecimal-sequence (`0x` or `0X` then hex digits), or `nil`.
    public static func hexadecimalDigits(_ text: String) -> String? {
        guard isHexadecimalSequence(text.utf8) else { return nil }
        return String(text.utf8.dropFirst(2))
    }

    @inline(__always)
    static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            true
        default: false
        }
    }

    @usableFromInline static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }
}
