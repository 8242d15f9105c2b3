/// The first eight bytes of a URI, as written and with ASCII letters lower-cased, for the rules that judge
/// its scheme: a key rule asks at every key tag, where a `String` prefix lower-cased, or a long `data:` URI
/// lower-cased whole, cost more than the rest of the rule.
struct URIHead {
    private let written: UInt64
    private let lowered: UInt64
    private let count: Int

    init(_ uri: String) {
        // (Read from the string's own UTF-8: a walk of its `utf8` view cost more than the rule.)
        var uri = uri
        (written, lowered, count) = uri.withUTF8 { bytes in
            var (written, lowered): (UInt64, UInt64) = (0, 0)
            let count = min(8, bytes.count)
            for index in 0..<count {
                let byte = bytes[index]
                let lower = byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
                written |= UInt64(byte) << (8 * index)
                lowered |= UInt64(lower) << (8 * index)
            }
            return (written, lowered, count)
        }
    }

    /// Whether the URI starts with `prefix` (at most eight bytes), exactly as written.
    func starts(with prefix: StaticString) -> Bool { Self.starts(written, count, with: prefix) }

    /// Whether the URI starts with `prefix` (at most eight bytes, lower case), in any letter case.
    func startsInAnyCase(with prefix: StaticString) -> Bool { Self.starts(lowered, count, with: prefix) }

    private static func starts(_ word: UInt64, _ count: Int, with prefix: StaticString) -> Bool {
        let length = prefix.utf8CodeUnitCount
        precondition(length <= 8, "a URI head is eight bytes")
        guard count >= length else { return false }
        var expected: UInt64 = 0
        for index in 0..<length { expected |= UInt64(prefix.utf8Start[index]) << (8 * index) }
        let mask: UInt64 = length == 8 ? ~0 : (1 << (8 * length)) - 1
        return word & mask == expected
    }
}
