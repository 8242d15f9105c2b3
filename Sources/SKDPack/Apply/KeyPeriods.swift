import SKDBytes
import SKDKeys

/// Key periods as `apply` counts them: the keys between two segments form a group, and the group starts
/// key period number `index` (the `key_index` variable).
struct KeyPeriods {
    private(set) var index = -1
    private(set) var inGroup = false
    private(set) var sawKeys = false
    /// The KEYID of a key of the group (the `kid` variable; another system's, or the FairPlay key's own),
    /// as 32 lowercase hex digits, kept where the template uses it (``keepsKid``); empty while the group has
    /// none. One buffer from group to group.
    private(set) var kid: [UInt8] = []
    /// Whether ``kid`` is kept: the template uses `{kid}`. (The KEYID as evidence is read either way.)
    let keepsKid: Bool
    /// Whether the group has told a KEYID.
    var hasKeyID: Bool { keyID != nil }

    init(keepsKid: Bool) { self.keepsKid = keepsKid }
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
            keyID = nil
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
        // Read once: the evidence checks its digits, and `kid` is the same digits lower-cased.
        guard keyID == nil, let evidence = KeyEvidence(keyIDAttribute: value) else { return }
        keyID = evidence
        guard keepsKid else { return }
        kid.removeAll(keepingCapacity: true)
        kid.append(contentsOf: UnsafeRawBufferPointer(rebasing: value[2...]))
        kid.withUnsafeMutableBufferPointer { digits in
            // (`| 0x20` makes A-F a-f and leaves a digit as it is.)
            for index in digits.indices { digits[index] |= 0x20 }
        }
    }

    /// Notes the KEYID of the key line `content`, read by `read` (which calls ``note(keyID:)``), unless it is
    /// the line that told the last group's: then that KEYID again, nothing read (a title whose key does
    /// not rotate repeats its key tags at every period).
    mutating func noteKeyID(of content: UnsafeRawBufferPointer, read: (inout KeyPeriods) -> Void) {
        guard keyID == nil else { return }
        if let keyID = lastKeyID, Bytes.equal(content, lastKeyIDLine.bytes) {
            if keepsKid { kid.append(contentsOf: lastKid) }
            self.keyID = keyID
            return
        }
        read(&self)
        // A line that told another KEYID than the last group's: the keys rotate, and no line is kept to
        // compare with from here on (a rotating playlist would copy one at every period for nothing).
        if lastKeyID != nil { keysRotate = true }
        guard let keyID, !keysRotate else { return }
        lastKeyIDLine.removeAll()
        lastKeyIDLine.append(content)
        if keepsKid {
            lastKid.removeAll(keepingCapacity: true)
            lastKid.append(contentsOf: kid)
        }
        lastKeyID = keyID
    }

    /// The group's KEYID as evidence, read once.
    private var keyID: KeyEvidence?
    /// Whether a group has told a KEYID other than the one before it.
    private var keysRotate = false
    /// The key line that told a group's KEYID last, and what it told.
    private var lastKeyIDLine = ByteBuffer()
    private var lastKid: [UInt8] = []
    private var lastKeyID: KeyEvidence?

    /// Notes the URI of another system's key of the period that has no KEYID.
    mutating func note(otherKeyURI uri: UnsafeRawBufferPointer) {
        tags = KeyEvidence.combine(tags, KeyEvidence.digest(uri))
    }

    /// What tells the group's key, without key truth: its KEYID, else its FairPlay key's old URI (`oldURI`:
    /// its digest, ``KeyEvidence/digest(_:)``), else its other keys' URIs; `nil` when nothing does.
    func evidence(oldURI: UInt64?) -> KeyEvidence? {
        if let keyID { return keyID }
        if let oldURI { return KeyEvidence(kind: .oldURI, digest: oldURI) }
        return tags.map { KeyEvidence(kind: .keyTags, digest: $0) }
    }

    mutating func end() { inGroup = false }
}
