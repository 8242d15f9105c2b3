/// A table from 64-bit digests to small numbers, open addressing with linear probing: what the key map
/// looks its URIs and keys up in at every key period. Its keys are digests already (``KeyEvidence/digest(_:)``, key ids folded),
/// so it mixes them once and asks no `Hasher` (which cost a key map a quarter of its time); a caller that
/// needs to tell two keys of one digest apart compares what the number names.
struct DigestTable: Sendable {
    private var keys: [UInt64]
    private var values: [Int32]
    private var used: [Bool]
    private(set) var count = 0

    init() {
        keys = Array(repeating: 0, count: 16)
        values = Array(repeating: 0, count: 16)
        used = Array(repeating: false, count: 16)
    }

    subscript(key: UInt64) -> Int? {
        let mask = keys.count - 1
        var slot = Self.start(key, mask)
        while used[slot] {
            if keys[slot] == key { return Int(values[slot]) }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Sets `key`'s number (a key not in the table yet: the caller looked first).
    mutating func insert(_ key: UInt64, _ value: Int) {
        if (count + 1) * 2 > keys.count { grow() }
        let mask = keys.count - 1
        var slot = Self.start(key, mask)
        while used[slot] { slot = (slot + 1) & mask }
        (keys[slot], values[slot], used[slot]) = (key, Int32(truncatingIfNeeded: value), true)
        count += 1
    }

    private mutating func grow() {
        let (oldKeys, oldValues, oldUsed) = (keys, values, used)
        keys = Array(repeating: 0, count: oldKeys.count * 2)
        values = Array(repeating: 0, count: oldKeys.count * 2)
        used = Array(repeating: false, count: oldKeys.count * 2)
        count = 0
        for slot in oldKeys.indices where oldUsed[slot] { insert(oldKeys[slot], Int(oldValues[slot])) }
    }

    /// The slot a key's probe starts at: its bits mixed (key ids are not random in their low bits).
    private static func start(_ key: UInt64, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }
}
