/// The first eight bytes of a URI, as written and with ASCII letters lower-cased, for the rules that judge
/// its scheme: a key rule asks at every key tag, where a `String` prefix lower-cased, or a long `data:` URI
/// lower-cased whole, cost more than the rest of the rule.
struct URIHead {
    private var written: UInt64 = 0
    private var lowered: UInt64 = 0
    private var count = 0

    init(_ uri: String) {
        for byte in uri.utf8.prefix(8) {
            let lower = byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
            written |= UInt64(byte) << (8 * count)
            lowered |= UInt64(lower) << (8 * count)
            count += 1
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
