/// A table from 64-bit digests to small numbers, open addressing with linear probing: what the key map
/// looks its URIs and keys up in at every key period. Its keys are digests already (``KeyEvidence/digest(_:)``,
/// key ids folded), so it mixes them once and asks no `Hasher` (which cost a key map a quarter of its
/// time); a caller that needs to tell two keys of one digest apart compares what the number names.
package struct DigestTable: Sendable {
    /// A slot: its key, and its number plus one (0: empty).
    private struct Slot {
        var key: UInt64 = 0
        var value: UInt32 = 0
    }

    private var slots = [Slot](repeating: Slot(), count: 64)
    package private(set) var count = 0

    package init() {}

    /// The first number of `key` (a set's member, or a key nothing else has the digest of).
    package subscript(key: UInt64) -> Int? { first(key) { _ in true } }

    /// The first number of `key` that `matches` (what it names is the caller's to compare): a key two
    /// things share (a digest's chance) is in the table once for each, and each is found.
    func first(_ key: UInt64, where matches: (Int) -> Bool) -> Int? {
        slots.withUnsafeBufferPointer { slots in
            let mask = slots.count - 1
            var index = Self.start(key, mask)
            while slots[index].value != 0 {
                if slots[index].key == key, matches(Int(slots[index].value) - 1) { return Int(slots[index].value) - 1 }
                index = (index + 1) & mask
            }
            return nil
        }
    }

    /// Adds `key` if it is not in the table; whether it was added (a set of digests).
    package mutating func insertIfAbsent(_ key: UInt64) -> Bool {
        guard self[key] == nil else { return false }
        insert(key, 0)
        return true
    }

    /// Sets `key`'s number (a key not in the table yet: the caller looked first).
    mutating func insert(_ key: UInt64, _ value: Int) {
        // Three quarters full at most: a title of 20,000 keys keeps each table within half a megabyte.
        if (count + 1) * 4 > slots.count * 3 { grow() }
        slots.withUnsafeMutableBufferPointer { Self.place(key, UInt32(truncatingIfNeeded: value + 1), in: $0) }
        count += 1
    }

    /// Puts `key` in the first empty slot of its probe (the table has room: ``insert(_:_:)`` grows it first).
    private static func place(_ key: UInt64, _ value: UInt32, in slots: UnsafeMutableBufferPointer<Slot>) {
        let mask = slots.count - 1
        var index = start(key, mask)
        while slots[index].value != 0 { index = (index + 1) & mask }
        slots[index] = Slot(key: key, value: value)
    }

    /// Twice the slots, every key placed again: one pass over both buffers, without a check of either
    /// array's uniqueness at each key.
    private mutating func grow() {
        var larger = [Slot](repeating: Slot(), count: slots.count * 2)
        larger.withUnsafeMutableBufferPointer { larger in
            slots.withUnsafeBufferPointer { slots in
                for slot in slots where slot.value != 0 { Self.place(slot.key, slot.value, in: larger) }
            }
        }
        slots = larger
    }

    /// The slot a key's probe starts at: its bits mixed (key ids are not random in their low bits).
    private static func start(_ key: UInt64, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }
}
