import CPIX
import MP4
import SKDFiles

/// Picks, for the FairPlay keys of one media playlist, the CPIX key of its track and key period.
///
/// The track is what the master says the playlist carries (``PlaylistPackage/tracks``); the period is the
/// order of the playlist's encrypted key periods, matched to the document's periods in their order
/// (`ContentKeyPeriod@index`). A document without periods gives every period the same key.
public struct TrackKeyChooser: Sendable {
    public let document: CPIXDocument
    /// The track, once per reference from the master; empty when the playlist has no master in the run.
    public let tracks: [TrackContext]
    /// The document's periods in the order keys are used.
    private let periods: [KeyPeriod]
    /// Key period index (`key_index`) → the ordinal of that encrypted period in the playlist.
    private var ordinals: [Int: Int] = [:]
    /// The values of each key asked for: a key serves every period of a playlist without rotation.
    private var valuesByKey: [KeyID: [String: String]] = [:]
    private var signalingByKey: [KeyID: CPIXFairPlayKey?] = [:]
    /// The choice for every key period, when the document has no periods: made once.
    private var choiceWithoutPeriods: Result<ContentKey, KeyTruthProblem>?
    /// The rules by the period their KeyPeriodFilter names, and those for any period.
    private let rulesByPeriod: [String: [UsageRule]]
    private let rulesForAnyPeriod: [UsageRule]

    public init(document: CPIXDocument, tracks: [TrackContext]) {
        self.document = document
        self.tracks = tracks
        self.periods = document.periodsInOrder
        var byPeriod: [String: [UsageRule]] = [:]
        var any: [UsageRule] = []
        for rule in document.usageRules {
            let periods = rule.filters.compactMap { if case .keyPeriod(let id) = $0 { id } else { nil } }
            if periods.isEmpty { any.append(rule) }
            for id in Set(periods) { byPeriod[id, default: []].append(rule) }
        }
        rulesByPeriod = byPeriod
        rulesForAnyPeriod = any
    }

    /// Whether every key period gets the same choice: the document has no periods.
    public var choosesOneKey: Bool { periods.isEmpty }

    /// The key for the playlist's key period `keyIndex`, or why there is none.
    public mutating func key(forKeyPeriod keyIndex: Int) -> Result<ContentKey, KeyTruthProblem> {
        // Without periods in the document, nothing of the choice depends on the period.
        if periods.isEmpty, let choiceWithoutPeriods { return choiceWithoutPeriods }
        let choice = choose(forKeyPeriod: keyIndex)
        if periods.isEmpty { choiceWithoutPeriods = choice }
        return choice
    }

    private mutating func choose(forKeyPeriod keyIndex: Int) -> Result<ContentKey, KeyTruthProblem> {
        let ordinal = ordinals[keyIndex] ?? ordinals.count
        ordinals[keyIndex] = ordinal
        var contexts = tracks
        let periodID = periods.isEmpty ? nil : ordinal < periods.count ? periods[ordinal].id : nil
        let candidates = rulesForAnyPeriod + (periodID.flatMap { rulesByPeriod[$0] } ?? [])
        if tracks.isEmpty {
            // Without the master, a track is known only to be a track: enough for rules by period alone.
            let needsTrack = candidates.contains { rule in rule.filters.contains { if case .keyPeriod = $0 { false } else { true } } }
            guard !needsTrack else {
                return .failure(
                    KeyTruthProblem(
                        "the track of this playlist is unknown (no master playlist references it in this run), and the CPIX "
                            + "document \(document.path) maps keys to tracks by usage rules; give the title's master playlist"))
            }
            contexts = [TrackContext(type: .other)]
        }
        var periodText = ""
        if !periods.isEmpty {
            guard ordinal < periods.count else {
                return .failure(
                    KeyTruthProblem(
                        "this is the playlist's encrypted key period \(ordinal + 1), and the CPIX document \(document.path) lists "
                            + "\(periods.count) key period\(periods.count == 1 ? "" : "s")"))
            }
            let period = periods[ordinal]
            for index in contexts.indices { contexts[index].periodID = period.id }
            periodText = ", period \(period.id ?? "#\(ordinal + 1)")"
        }
        var chosen: ContentKey?
        for context in contexts {
            let track = context.description + (context.periodID == nil ? periodText : "")
            switch document.select(for: context, among: candidates) {
            case .key(let key):
                if let earlier = chosen, earlier.kid != key.kid {
                    return .failure(
                        KeyTruthProblem(
                            "the master references this playlist as tracks that get different keys (\(earlier.kid), \(key.kid)) from \(document.path)"
                        ))
                }
                chosen = key
            case .none(let considered):
                let rules = considered.map { "line \($0.line): \($0.summary)" + ($0.intendedTrackType.map { " [\($0)]" } ?? "") }
                return .failure(
                    KeyTruthProblem(
                        "no key of the CPIX document \(document.path) is for this track (\(track)); rules considered: "
                            + (rules.isEmpty ? "none" : rules.joined(separator: "; "))))
            case .ambiguous(let keys):
                return .failure(
                    KeyTruthProblem(
                        "\(keys.count) keys of the CPIX document \(document.path) are for this track (\(track)): "
                            + keys.map(\.kid.uuid).joined(separator: ", ") + "; a track must have one key"))
            case .unusable(let reason):
                return .failure(KeyTruthProblem("\(document.path): \(reason)"))
            }
        }
        return chosen.map { .success($0) } ?? .failure(KeyTruthProblem("no track to choose a key for"))
    }

    /// The document's FairPlay signaling for `key` (parsed once per key).
    public mutating func signaling(of kid: KeyID) -> CPIXFairPlayKey? {
        if let known = signalingByKey[kid] { return known }
        let signaling = CPIXFairPlayKey(document: document, kid: kid)
        signalingByKey[kid] = signaling
        return signaling
    }

    /// The template variables key `key` gives: `kid`, `kid_uuid`, `cpix_content_id`, and where the document
    /// has them `iv_hex` and `cpix_uri` (its FairPlay signaling's URI).
    public mutating func values(of key: ContentKey) -> [String: String] {
        if let known = valuesByKey[key.kid] { return known }
        var values = ["kid": key.kid.hex, "kid_uuid": key.kid.uuid]
        if let content = key.contentID ?? document.contentID { values["cpix_content_id"] = content }
        if let iv = key.explicitIV { values["iv_hex"] = KeyID.hex(iv) }
        if let uri = signaling(of: key.kid)?.keyURI { values["cpix_uri"] = uri }
        valuesByKey[key.kid] = values
        return values
    }
}
