/// A Common Encryption key identifier (ISO/IEC 23001-7, `default_KID`; a CPIX `ContentKey@kid`): 16 bytes,
import SKDBytes

/// shown as 32 lowercase hex digits or as a UUID.
public struct KeyID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The 16 bytes, in order.
    public let bytes: [UInt8]

    /// `nil` unless `bytes` holds exactly 16 bytes.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 16 else { return nil }
        self.bytes = Array(bytes)
    }

    /// A key id written as a UUID (`8-4-4-4-12`) or as 32 hex digits, either case; `nil` otherwise.
    public init?(_ text: some StringProtocol) {
        var string = String(text)
        guard let bytes = string.withUTF8({ Self.parse($0) }) else { return nil }
        self.bytes = bytes
    }

    /// The 16 bytes of a UUID (36 characters) or of 32 hex digits, over the UTF-8 of the text.
    private static func parse(_ utf8: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let isUUID = utf8.count == 36
        guard isUUID || utf8.count == 32 else { return nil }
        var bytes = [UInt8](repeating: 0, count: 16)
        var digit = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            if isUUID, index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard let value = Bytes.hexValue(byte) else { return nil }
            bytes[digit >> 1] |= digit & 1 == 0 ? value << 4 : value
            digit += 1
        }
        return bytes
    }

    /// 32 lowercase hex digits.
    public var hex: String { Self.hex(bytes) }

    /// The UUID form, lowercase: `b99ed9e5-c641-49d1-bfa8-43692b686ddb`.
    public var uuid: String {
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            Hex.append(byte, to: &text)
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// All sixteen bytes zero: what some packagers write where the real key id is given elsewhere.
    public var isZero: Bool { bytes.allSatisfy { $0 == 0 } }

    public var description: String { uuid }

    public static func < (lhs: KeyID, rhs: KeyID) -> Bool { lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }

    /// Lowercase hex of any bytes.
    public static func hex(_ bytes: some Sequence<UInt8>) -> String { Hex.string(bytes) }

}
