/// Key periods as `apply` counts them: the keys between two segments form a group, and the group starts
/// key period number `index` (the `key_index` variable).
struct KeyPeriods {
    private(set) var index = -1
    private(set) var inGroup = false
    private(set) var sawKeys = false
    /// The KEYID of a key of the group (the `kid` variable; another system's, or the FairPlay key's own),
    /// as 32 lowercase hex digits; empty while the group has none. One buffer from group to group.
    private(set) var kid: [UInt8] = []
    /// A digest of the URIs of the group's other keys without a KEYID: what tells its key where nothing
    /// else does (``KeyEvidence/Kind/keyTags``); `nil` while there is none.
    private(set) var tags: UInt64?
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
            tags = nil
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

    /// Notes the URI of another system's key of the period that has no KEYID.
    mutating func note(otherKeyURI uri: UnsafeRawBufferPointer) {
        tags = KeyEvidence.combine(tags, KeyEvidence.digest(uri))
    }

    /// What tells the group's key, without key truth: its KEYID, else its FairPlay key's old URI (`oldURI`:
    /// its digest, ``KeyEvidence/digest(_:)``), else its other keys' URIs; `nil` when nothing does.
    func evidence(oldURI: UInt64?) -> KeyEvidence? {
        if !kid.isEmpty, let keyID = kid.withUnsafeBytes({ KeyEvidence(kind: .keyID, keyIDHex: $0) }) { return keyID }
        if let oldURI { return KeyEvidence(kind: .oldURI, digest: oldURI) }
        return tags.map { KeyEvidence(kind: .keyTags, digest: $0) }
    }

    mutating func end() { inGroup = false }
}
