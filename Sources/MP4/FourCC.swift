/// A box type or a format code: four bytes, shown as text where they are printable and as `\xNN` where
/// not, so that a hostile file cannot put control characters into a message.
public struct FourCC: Hashable, Sendable, CustomStringConvertible {
    public let value: UInt32

    public init(_ value: UInt32) { self.value = value }

    /// `text` must be four ASCII characters.
    public init(_ text: StaticString) {
        precondition(text.utf8CodeUnitCount == 4)
        var value: UInt32 = 0
        for index in 0..<4 { value = value << 8 | UInt32(text.utf8Start[index]) }
        self.value = value
    }

    public var description: String {
        var text = ""
        for shift in stride(from: 24, through: 0, by: -8) {
            let byte = UInt8(truncatingIfNeeded: value >> UInt32(shift))
            if byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\"), byte != UInt8(ascii: "'") {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                text += "\\x" + KeyID.hex([byte])
            }
        }
        return text
    }
}
