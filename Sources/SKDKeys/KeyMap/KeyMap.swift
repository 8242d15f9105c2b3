/// The key map of a title: every FairPlay URI its key periods use, each with the evidence of the content
/// key behind it (``KeyEvidence``) and where it is used. A license server answers one content key for a
/// URI, so within a title each key must have exactly one FairPlay URI and each URI stand for exactly one
/// key, in every rendition: ``note(uri:evidence:at:)`` says where a period breaks that.
///
/// The one model behind `apply`'s refusals (a template that would give two keys one URI) and `validate`'s
/// findings (`FPS-uri-two-keys`, `FPS-key-two-uris`), and what `inspect` shows of a title. It keeps a
/// digest of each URI and one entry per distinct URI and key: memory grows with a title's keys, never with
/// its segments.
public struct KeyMap: Sendable {
    /// Where a key period is: its playlist and the line of its FairPlay key.
    public struct Place: Hashable, Sendable, Comparable, CustomStringConvertible {
        public var playlist: String
        public var line: Int

        public init(playlist: String, line: Int) { (self.playlist, self.line) = (playlist, line) }

        public static func < (lhs: Place, rhs: Place) -> Bool { (lhs.playlist, lhs.line) < (rhs.playlist, rhs.line) }
        public var description: String { "\(playlist):\(line)" }
    }

    /// A URI and the key it stands for, where it was first met.
    public struct Entry: Sendable {
        /// The URI's digest (``KeyEvidence/digest(_:)``): the URI itself may hold a token.
        public var uri: UInt64
        public var evidence: KeyEvidence
        public var place: Place

        public init(uri: UInt64, evidence: KeyEvidence, place: Place) { (self.uri, self.evidence, self.place) = (uri, evidence, place) }
    }

    /// A break of the one-to-one map: the entry met first and the one that breaks it.
    public enum Conflict: Sendable {
        /// One URI for two keys (their evidence of one kind differs).
        case oneURIForTwoKeys(first: Entry, second: Entry)
        /// One key (the same evidence) with two URIs.
        case twoURIsForOneKey(first: Entry, second: Entry)

        public var first: Entry {
            switch self {
            case .oneURIForTwoKeys(let first, _), .twoURIsForOneKey(let first, _): first
            }
        }

        public var second: Entry {
            switch self {
            case .oneURIForTwoKeys(_, let second), .twoURIsForOneKey(_, let second): second
            }
        }
    }

    /// The distinct URI and key pairs, in the order met.
    public private(set) var entries: [Entry] = []
    /// The first entry of each key, by its evidence's digest.
    private var byEvidence = DigestTable()
    /// The first entry of each URI, per kind of evidence (evidence of different kinds cannot be compared).
    private var byURI = DigestTable()
    /// The entry noted last: a key period like the one before (a key repeated, one URI for a title whose
    /// key does not rotate) is nothing new.
    private var last: (uri: UInt64, evidence: KeyEvidence)?

    public init() {}

    /// Notes that the key period at `place`, whose key `evidence` tells, uses the URI of digest `uri`; the
    /// conflict it makes with what was noted before, if any (and then it is not kept).
    public mutating func note(uri: UInt64, evidence: KeyEvidence, at place: Place) -> Conflict? {
        if let last, last.uri == uri, last.evidence == evidence { return nil }
        let entry = Entry(uri: uri, evidence: evidence, place: place)
        // (A digest names one key but for a chance of 1 in 10^10 in 20,000 keys: the entries' own evidence
        // is compared, and two keys of one digest are each found.)
        if let first = byEvidence.first(evidence.digestWord, where: { entries[$0].evidence == evidence }) {
            if entries[first].uri == uri {
                self.last = (uri, evidence)
                return nil
            }
            return .twoURIsForOneKey(first: entries[first], second: entry)
        }
        let uriKey = uri ^ (UInt64(evidence.kind.rawValue) &* 0x5851_F42D_4C95_7F2D)
        if let first = byURI[uriKey] {
            return .oneURIForTwoKeys(first: entries[first], second: entry)
        }
        byEvidence.insert(evidence.digestWord, entries.count)
        byURI.insert(uriKey, entries.count)
        entries.append(entry)
        self.last = (uri, evidence)
        return nil
    }

    /// Notes every entry of `entries` (what another playlist of the title uses); the conflicts they make,
    /// one per entry that makes one.
    public mutating func merge(_ entries: [Entry]) -> [Conflict] {
        entries.compactMap { note(uri: $0.uri, evidence: $0.evidence, at: $0.place) }
    }
}

/// The numbers of a rendition's keys (`key_index`): from 0, in the order its keys first appear, clear
/// periods not counted; a key met again (the same evidence) keeps its number, and a period whose key
/// nothing tells gets a number of its own. Renditions whose keys change together get the same numbers
/// whatever their evidence says (an old URI here, a KEYID there); where keys per track would then share a
/// URI, the title's ``KeyMap`` refuses it.
public struct KeyNumbers: Sendable {
    private var numbers = DigestTable()
    private var count = 0
    private var last: (evidence: KeyEvidence, number: Int)?

    public init() {}

    public mutating func number(of evidence: KeyEvidence?) -> Int {
        if let evidence, let last, last.evidence == evidence { return last.number }
        if let evidence, let known = numbers[evidence.digestWord] {
            last = (evidence, known)
            return known
        }
        let next = count
        count += 1
        if let evidence {
            numbers.insert(evidence.digestWord, next)
            last = (evidence, next)
        }
        return next
    }
}
