/// Hexadecimal digits written: the one way skdpack writes them (a key id, a digest, a codec's bytes, an
/// escape in a URI or a report). Reading them is ``Bytes/hexValue(_:)`` and ``Bytes/hexWord(_:at:)``.
public enum Hex {
    @usableFromInline static let lower = Array("0123456789abcdef".utf8)
    @usableFromInline static let upper = Array("0123456789ABCDEF".utf8)

    /// Appends the two digits of `byte`.
    @inlinable
    public static func append(_ byte: UInt8, uppercase: Bool = false, to output: inout [UInt8]) {
        let digits = uppercase ? upper : lower
        output.append(digits[Int(byte >> 4)])
        output.append(digits[Int(byte & 0x0F)])
    }

    /// The digits of `bytes`, two a byte. (Inlinable: unspecialised, a sequence's bytes are read through its
    /// witness table one by one, ten thousand instructions for a key id's sixteen.)
    @inlinable
    public static func string(_ bytes: some Sequence<UInt8>, uppercase: Bool = false) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes { append(byte, uppercase: uppercase, to: &text) }
        return String(decoding: text, as: UTF8.self)
    }

    /// The 16 lowercase digits of `word`, zero-padded (a digest, half a key id).
    public static func string(_ word: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { digits in
            for index in 0..<16 { digits[index] = lower[Int(truncatingIfNeeded: word >> (60 - 4 * UInt64(index)) & 0xF)] }
            return 16
        }
    }
}
