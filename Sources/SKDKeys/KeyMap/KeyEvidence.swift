import SKDBytes

/// What tells which content key a key period uses, strongest first: the key server's or the media's key
/// id (key truth: a CPIX key period, an init segment's `tenc`, a fragment's `seig`), the `KEYID` of any key
/// tag of the period (Widevine, PlayReady, FairPlay), the period's old FairPlay URI, and, where none of
/// those is there, the period's other key tags themselves (a change of key tags is a change of key).
///
/// Two periods with evidence of one kind and the same value use one key; of one kind and different values,
/// two keys; of different kinds, nobody here can tell. What is not a key id is kept as a digest only: an
/// old URI may hold a token, which no message may show.
public struct KeyEvidence: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: UInt8, Sendable, Comparable {
        case keyTruth, keyID, oldURI, keyTags

        public static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public let kind: Kind
    /// The key id's 16 bytes (key truth, KEYID), or a digest of the bytes that tell (and zero).
    let high: UInt64
    let low: UInt64

    /// One word to the hasher, not three: a key map hashes evidence at every key period.
    public func hash(into hasher: inout Hasher) { hasher.combine(digestWord) }

    /// The evidence folded into one word (what it is hashed by).
    package var digestWord: UInt64 { high &* 0x9E37_79B9_7F4A_7C15 ^ low ^ UInt64(kind.rawValue) }

    public static func == (lhs: KeyEvidence, rhs: KeyEvidence) -> Bool {
        lhs.high == rhs.high && lhs.low == rhs.low && lhs.kind == rhs.kind
    }

    /// A key id given as 32 hexadecimal digits (any case); `nil` if it is not one.
    public init?(kind: Kind, keyIDHex digits: UnsafeRawBufferPointer) {
        precondition(kind == .keyTruth || kind == .keyID, "a key id is key truth's or a KEYID")
        guard digits.count == 32, let high = Bytes.hexWord(digits, at: 0), let low = Bytes.hexWord(digits, at: 16) else { return nil }
        (self.kind, self.high, self.low) = (kind, high, low)
    }

    /// A KEYID attribute's value as written (`0x` and 32 hex digits, either case); `nil` if it is not
    /// one. Read in one pass, as it is at every key period.
    public init?(keyIDAttribute value: UnsafeRawBufferPointer) {
        guard value.count == 34, value[0] == UInt8(ascii: "0"), value[1] | 0x20 == UInt8(ascii: "x"),
            let high = Bytes.hexWord(value, at: 2), let low = Bytes.hexWord(value, at: 18)
        else { return nil }
        (kind, self.high, self.low) = (.keyID, high, low)
    }

    public init?(kind: Kind, keyIDHex text: String) {
        var text = text
        guard let made = text.withUTF8({ Self(kind: kind, keyIDHex: UnsafeRawBufferPointer($0)) }) else { return nil }
        self = made
    }

    /// Evidence of `kind` whose digest is made already.
    public init(kind: Kind, digest: UInt64) {
        precondition(kind == .oldURI || kind == .keyTags, "a key id is read as one")
        (self.kind, high, low) = (kind, digest, 0)
    }

    /// The key id as 32 lowercase hex digits, where the evidence is one.
    public var keyIDHex: String? {
        guard kind == .keyTruth || kind == .keyID else { return nil }
        return Hex.string(high) + Hex.string(low)
    }

    /// How messages name it: a key id is shown; an old URI or key tags only by what they are.
    public var description: String {
        switch kind {
        case .keyTruth: "key id \(keyIDHex!) from key truth"
        case .keyID: "KEYID 0x\(keyIDHex!)"
        case .oldURI: "its old FairPlay URI"
        case .keyTags: "its other systems' key tags"
        }
    }

    /// A 64-bit digest of `bytes`, eight at a time (each word multiplied in and rotated, the length folded
    /// in, the result mixed as splitmix64 does): the same in every process (a sharded run's reports compare
    /// them), and 20,000 keys of one title collide with a chance of about 1 in 10^10. Taken of every key URI
    /// `apply` writes, so it reads words, not bytes.
    public static func digest(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var index = 0
        while index + 8 <= bytes.count {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            hash = (hash ^ word) &* 0xBF58_476D_1CE4_E5B9
            hash = hash << 31 | hash >> 33
            index += 8
        }
        var tail: UInt64 = 0
        while index < bytes.count {
            tail = tail << 8 | UInt64(bytes[index])
            index += 1
        }
        hash = (hash ^ tail) &* 0x94D0_49BB_1331_11EB
        hash ^= hash >> 31
        hash &*= 0xBF58_476D_1CE4_E5B9
        return hash ^ (hash >> 29)
    }

    public static func digest(_ text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { digest(UnsafeRawBufferPointer($0)) }
    }

    /// The digest of key tags so far (`nil`: none yet) with one more tag's.
    public static func combine(_ digest: UInt64?, _ next: UInt64) -> UInt64 { (digest ?? 0) &* 31 &+ next }
}
