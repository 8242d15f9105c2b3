import HLS
import SKDKeys

/// A key stays in force until a key of its KEYFORMAT replaces it: a key period that gives the other systems
/// keys with new KEYIDs but writes no FairPlay key of its own leaves FairPlay with the key of an earlier
/// period, and a FairPlay player decrypts the new period with the old key (or fails to). Told by the
/// KEYIDs: the period's other keys name none of the keys the FairPlay key in force was written beside.
struct FairPlayKeyNotRotatedRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "FPS-key-not-rotated", severity: .error,
        summary: "A key period rotates the other systems' keys but writes no FairPlay key: FairPlay keeps an earlier period's key.",
        specSection: "4.3.2.4")

    static let tags: Set<TagName>? = [.key]

    /// The FairPlay key in force: its line, and the KEYIDs of the other systems' keys in force at the end
    /// of its period.
    private var fairPlay: (line: Int, keyIDs: Set<KeyEvidence>)?
    /// The other systems' keys in force: KEYFORMAT and KEYID (a few systems: a list, searched).
    private var others: [(keyFormat: String, keyID: KeyEvidence)] = []
    /// The key period being read (keys since the last segment): whether it has a FairPlay key, and the
    /// KEYIDs its other keys name, with their lines.
    private var inPeriod = false
    private var periodHasFairPlay = false
    private var periodKeyIDs: [(keyID: KeyEvidence, keyFormat: String, line: Int)] = []

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard tag.name == .key, let key = context.key else { return }
        if !inPeriod {
            (inPeriod, periodHasFairPlay, periodKeyIDs) = (true, false, [])
        }
        if key.isClear {
            (fairPlay, others) = (nil, [])
            periodKeyIDs = []
        } else if key.isFairPlay {
            periodHasFairPlay = true
            fairPlay = (line.raw.number, [])
        } else if let value = tag.attributes?["KEYID"]?.textBytes,
            let keyID = value.withUnsafeBytes({ KeyEvidence(keyIDAttribute: $0) })
        {
            if let index = others.firstIndex(where: { $0.keyFormat == key.keyFormat }) {
                others[index].keyID = keyID
            } else {
                others.append((key.keyFormat, keyID))
            }
            periodKeyIDs.append((keyID, key.keyFormat, line.raw.number))
        }
    }

    /// A run of segments is judged at its first (a key period is judged at its first segment): the segments after it
    /// change nothing.
    mutating func segments(_ run: SegmentRun, in context: RuleContext) { replay(run, segments: 1, in: context) }

    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        guard inPeriod else { return }
        inPeriod = false
        guard let current = fairPlay else { return }
        if periodHasFairPlay {
            fairPlay = (current.line, Set(others.map(\.keyID)))
            return
        }
        guard !current.keyIDs.isEmpty, let rotated = periodKeyIDs.first(where: { !current.keyIDs.contains($0.keyID) }) else { return }
        context.report(
            Self.kind,
            "this key period's \(ProtectionSystemsRule.describe([rotated.keyFormat])) key has KEYID 0x\(rotated.keyID.keyIDHex!), but the "
                + "period has no FairPlay key: the FairPlay key of line \(current.line), written beside KEYID "
                + "\(current.keyIDs.compactMap(\.keyIDHex).sorted().map { "0x" + $0 }.joined(separator: ", ")), stays in force and FairPlay plays "
                + "this period with its key; give the period a FairPlay key of its own (skdpack apply writes one)",
            onLine: rotated.line)
    }
}
