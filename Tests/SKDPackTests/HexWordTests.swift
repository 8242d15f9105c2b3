import SKDBytes
import SKDTestSupport
import Testing

@testable import SKDPack

/// A key id is read eight digits at a time (``Bytes/hexWord(_:at:)``): it must read what a digit at a time
/// reads, and refuse what it refuses, on every byte a playlist can hold.
@Suite("key ids read eight digits at a time")
struct HexWordTests {
    /// What one digit at a time reads: each of the 16 bytes a digit of either case, else `nil`.
    private static func reference(_ bytes: [UInt8]) -> UInt64? {
        var value: UInt64 = 0
        for byte in bytes {
            guard let digit = Bytes.hexValue(byte) else { return nil }
            value = value << 4 | UInt64(digit)
        }
        return value
    }

    /// Bytes next to the digits' and letters' ranges (where a range check is off by one), control bytes
    /// that `| 0x20` would make digits, and bytes above 0x7F.
    private static let nearMisses: [UInt8] =
        [0x00, 0x10, 0x19, 0x1A, 0x2F, 0x3A, 0x40, 0x47, 0x5F, 0x60, 0x67, 0x7F, 0x80, 0xB0, 0xC1, 0xE6, 0xFF]
    private static let digits = Array("0123456789abcdefABCDEF".utf8)

    @Test("agrees with a digit at a time on 200,000 generated inputs")
    func generated() {
        var random = SplitMix(seed: 0x4845_5857)
        for round in 0..<200_000 {
            var bytes = (0..<16).map { _ in Self.digits.randomElement(using: &random)! }
            // Most inputs spoiled at one or two places, some not at all; some by any byte at all.
            for _ in 0..<Int.random(in: 0...2, using: &random) {
                let place = Int.random(in: 0..<16, using: &random)
                bytes[place] =
                    round % 3 == 0 ? UInt8.random(in: 0...255, using: &random) : Self.nearMisses.randomElement(using: &random)!
            }
            let read = bytes.withUnsafeBytes { Bytes.hexWord($0, at: 0) }
            #expect(read == Self.reference(bytes), "\(bytes)")
            if read != Self.reference(bytes) { return }
        }
    }

    @Test("every byte in every place: refused unless a digit")
    func everyByte() {
        let base = Array("0123456789abcdef".utf8)
        for place in 0..<16 {
            for byte in UInt8.min...UInt8.max {
                var bytes = base
                bytes[place] = byte
                let read = bytes.withUnsafeBytes { Bytes.hexWord($0, at: 0) }
                #expect(read == Self.reference(bytes), "byte \(byte) at \(place)")
            }
        }
    }

    @Test("what Hex writes, hexWord reads back: words zero-padded to 16 digits, bytes two digits each, in either case")
    func writtenReadBack() {
        var random = SplitMix(seed: 0x4845_5832)
        for round in 0..<20_000 {
            // Small words too (a digest with leading zero digits), and every shift of a bit.
            let word = round < 64 ? UInt64(1) << UInt64(round) : random.next() >> (random.next() % 64)
            let text = Hex.string(word)
            #expect(text.utf8.count == 16)
            #expect(Array(text.utf8).withUnsafeBytes { Bytes.hexWord($0, at: 0) } == word, "\(text)")
            let bytes = (0..<8).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let upper = Hex.string(bytes, uppercase: true)
            #expect(upper == Hex.string(bytes).uppercased())
            #expect(Self.reference(Array(upper.utf8)) == bytes.reduce(0) { $0 << 8 | UInt64($1) })
        }
    }
}
