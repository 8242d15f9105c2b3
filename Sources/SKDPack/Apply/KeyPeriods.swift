/// Key periods as `apply` counts them: the keys between two segments form a group, and the group starts
/// key period number `index` (the `key_index` variable).
struct KeyPeriods {
    private(set) var index = -1
    private(set) var inGroup = false
    private(set) var sawKeys = false
    /// The KEYID of another system's key in the group (the `kid` variable), as 32 lowercase hex digits;
    /// empty while the group has none. One buffer from group to group.
    private(set) var kid: [UInt8] = []
    private(set) var lastKeyLine = 0
    /// Whether the group has a FairPlay key of its own (a FairPlay key of an earlier period still in force
    /// does not count: the group's other keys may have rotated).
    private(set) var hasFairPlayKey = false
    /// The number of segments read when the group started: once it grows, the group is over.
    private(set) var segmentsAtStart = 0

    /// Notes a key of the period (`isFairPlay`: a FairPlay key).
    mutating func note(line: Int, segments: Int, isFairPlay: Bool) {
        if !inGroup {
            inGroup = true
            index += 1
            kid.removeAll(keepingCapacity: true)
            segmentsAtStart = segments
            hasFairPlayKey = false
        }
        sawKeys = true
        lastKeyLine = line
        if isFairPlay { hasFairPlayKey = true }
    }

    /// Notes the KEYID of another system's key of the period (its attribute value, as written), the first
    /// that has one.
    mutating func note(keyID value: UnsafeRawBufferPointer) {
        if kid.isEmpty { _ = KeyLine.normalizedKeyID(value, into: &kid) }
    }

    mutating func end() { inGroup = false }
}
