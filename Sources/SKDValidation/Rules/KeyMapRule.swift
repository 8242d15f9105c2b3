import HLS
import SKDKeys
import SKDReportModel

/// One FairPlay URI per key (``KeyMap``): a license server answers one content key for a URI, so a URI
/// that stands for two keys plays one of them with the wrong key, and a key with two URIs is fetched
/// twice and must be known to the server under both. Judged on what tells each period's key: key truth,
/// else a `KEYID` of the period's key tags; where neither is there, nobody here can tell, and nothing is said.
/// Run over a title (a master's media playlists, or one media playlist alone); `apply` keeps the same map
/// while it writes (``KeyMap/Conflict/kind(writing:)``).
package enum KeyMapRule {
    /// Said by `apply`, which would write the one URI: the map it keeps as it writes refuses it.
    public static let rotationFoldedKind = DiagnosticKind(
        id: "TPL-rotation-folded", severity: .error,
        summary: "Two key periods in a row have different keys but the template gives them one URI: a player keeps the "
            + "first period's key for both.",
        specSection: "4.3.2.4")
    static let uriTwoKeysKind = DiagnosticKind(
        id: "FPS-uri-two-keys", severity: .error,
        summary: "One FairPlay URI stands for two content keys (their KEYIDs or key truth differ): the license server "
            + "answers one key for it, so one of the periods cannot play.",
        specSection: "4.3.2.4; FairPlay Streaming Programming Guide (the skd URI names the content key)")
    static let keyTwoURIsKind = DiagnosticKind(
        id: "FPS-key-two-uris", severity: .error,
        summary: "One content key (one KEYID or key-truth key) has two FairPlay URIs in a title: the license server must "
            + "know it under both, and a player fetches it twice.",
        specSection: "4.3.2.4; FairPlay Streaming Programming Guide (the skd URI names the content key)")

    static let unknownKind = DiagnosticKind(
        id: "FPS-key-map-unknown", severity: .info,
        summary: "A FairPlay URI is used by a period whose KEYID is known and by one of another playlist of the title that "
            + "has none: whether the second has the same key cannot be told here.",
        specSection: "FairPlay Streaming Programming Guide (the skd URI names the content key)")

    /// The findings of a title whose playlists were validated as `media` (in the order the title lists them),
    /// each placed at the key line of the period that breaks the map; and a note where a URI's key is told
    /// in one playlist and not in another (a KEYID in the video, FairPlay alone in the audio), once a URI.
    static func check(_ media: [PlaylistValidation]) -> [Diagnostic] {
        var title = KeyMap()
        var findings: [Diagnostic] = []
        var told: [UInt64: KeyUse] = [:]
        for use in media.flatMap(\.keyUses) where use.evidence != nil && told[use.digest] == nil { told[use.digest] = use }
        var noted: Set<UInt64> = []
        for use in media.flatMap(\.keyUses) where use.evidence == nil {
            guard let known = told[use.digest], known.place.playlist != use.place.playlist, noted.insert(use.digest).inserted else {
                continue
            }
            findings.append(
                unknownKind(
                    "this FairPlay URI stands for the key with \(known.evidence!) at \(known.place), but nothing here tells this "
                        + "period's key (no KEYID): if this playlist has a key of its own, give it a URI of its own",
                    at: SourceLocation(path: use.place.playlist, line: use.place.line, column: 1, offset: 0)))
        }
        for playlist in media {
            let entries = playlist.keyUses.compactMap { use in
                use.evidence.map { KeyMap.Entry(uri: use.digest, evidence: $0, place: use.place) }
            }
            for conflict in title.merge(entries) {
                let place = conflict.second.place
                findings.append(
                    conflict.kind(writing: false)(
                        conflict.message(writing: false), at: SourceLocation(path: place.playlist, line: place.line, column: 1, offset: 0)))
            }
        }
        return findings
    }
}

extension KeyMap.Conflict {
    /// The finding a conflict is: `writing`, met by `apply` while it renders (a template that folds two
    /// keys into one URI is `TPL-rotation-folded`), else by `validate`.
    package func kind(writing: Bool) -> DiagnosticKind {
        switch self {
        case .oneURIForTwoKeys: writing ? KeyMapRule.rotationFoldedKind : KeyMapRule.uriTwoKeysKind
        case .twoURIsForOneKey: KeyMapRule.keyTwoURIsKind
        }
    }

    /// What it says, at the second place: both periods and their evidence, never the URI (it may hold a
    /// token); `writing`: what to put in the template, whose variables are `variables`.
    package func message(writing: Bool, variables: [String] = []) -> String {
        switch self {
        case .oneURIForTwoKeys(let first, let second):
            let what = writing ? "yet the template gives both one URI" : "yet both have this FairPlay URI"
            let other = Self.name(first.place, from: second.place)
            // Evidence of one kind named once: "(its old FairPlay URI) … (its old FairPlay URI)" read as a blank.
            let differ =
                first.evidence.kind == second.evidence.kind && first.evidence.keyIDHex == nil
                ? "this key period's key is not the key of \(other), as \(Self.plural(second.evidence)) differ"
                : "this key period's key (\(second.evidence)) is not the key of \(other) (\(first.evidence))"
            return differ + ", \(what): a license server answers one key for a URI, so a player would play both "
                + "with one key; "
                + (writing
                    ? Self.advice(first, second, variables: variables)
                    : "give each key a URI of its own")
        case .twoURIsForOneKey(let first, let second):
            let what = writing ? "yet the template gives it another URI" : "yet its FairPlay URI here is another"
            return "this key period's key (\(second.evidence)) is the key of \(Self.name(first.place, from: second.place)), "
                + "\(what): one key, two URIs (the license server must know both); "
                + (writing
                    ? "make the URI depend on the key only ({kid}, {key_index}), not on the period or the playlist"
                    : "give the key one URI in every period and rendition")
        }
    }

    /// Evidence that is no key id, named for two periods at once ("their old FairPlay URIs").
    private static func plural(_ evidence: KeyEvidence) -> String {
        evidence.kind == .oldURI ? "their old FairPlay URIs" : "their other systems' key tags"
    }

    /// What to put in a template that gives two keys one URI: `{kid}` where the keys are of two playlists
    /// (keys per track: `{key_index}` numbers each playlist's keys alike), or where the template has
    /// `{key_index}` already; else either.
    private static func advice(_ first: KeyMap.Entry, _ second: KeyMap.Entry, variables: [String]) -> String {
        if first.place.playlist != second.place.playlist || variables.contains("key_index") {
            return "the playlists have keys of their own (keys per track): put {kid} in the template, which names each "
                + "period's key (the shipped template entitlement-kid is the entitlement form with &kid={kid})"
        }
        return "put {key_index} or {kid} in the template (the shipped templates entitlement-rotation and entitlement-kid "
            + "add &period={key_index} and &kid={kid} to the entitlement form), or take the URI from a value that differs per key"
    }

    /// `place` as seen from `here`: its line in the same playlist, or its path and line.
    private static func name(_ place: KeyMap.Place, from here: KeyMap.Place) -> String {
        place.playlist == here.playlist ? "line \(place.line)" : "\(place.playlist):\(place.line)"
    }
}

/// The key URIs of a run's titles: two titles share a FairPlay URI only where they share its key. Each
/// title is held to the titles read before it, in the run's order (its findings are made before it is
/// shown, so a run's output still streams): the same URI for another KEYID, or with nothing that says the
/// key is shared, is an error at the later title's key line, naming the earlier one.
package struct RunKeyMap {
    package static let kind = DiagnosticKind(
        id: "FPS-uri-two-titles", severity: .error,
        summary: "Two titles use one FairPlay URI and nothing says they share its key (their KEYIDs differ, or they "
            + "have none): the license server answers one key, so one title plays with the other's.",
        specSection: "FairPlay Streaming Programming Guide (the skd URI names the content key)")

    /// What a merge of shards' reports could not hold to this rule: a URI with a token has no digest in a
    /// report (``Report/KeyURI``).
    package static let notComparedKind = DiagnosticKind(
        id: "FPS-uri-not-compared", severity: .info,
        summary: "Merged reports: FairPlay URIs that hold a token carry no digest, so the titles of different shards "
            + "are not held to one another on them (titles run in one job are).",
        specSection: "skdpack: a report keeps no digest a token could be guessed against")

    private var byURI: [UInt64: (title: String, evidence: KeyEvidence?, place: KeyMap.Place)] = [:]

    package init() {}

    /// The findings of `title`'s playlists against the titles noted before, then noted.
    mutating func check(_ playlists: [PlaylistValidation], title: String) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        var reported: Set<UInt64> = []
        for playlist in playlists {
            for use in playlist.keyUses {
                guard let first = byURI[use.digest] else { continue }
                guard first.title != title, first.evidence == nil || first.evidence != use.evidence, reported.insert(use.digest).inserted
                else { continue }
                findings.append(
                    Self.kind(
                        Self.message(other: first.place.description, ours: use.evidence?.keyIDHex, theirs: first.evidence?.keyIDHex),
                        at: SourceLocation(path: use.place.playlist, line: use.place.line, column: 1, offset: 0)))
            }
        }
        for playlist in playlists {
            for use in playlist.keyUses where byURI[use.digest] == nil { byURI[use.digest] = (title, use.evidence, use.place) }
        }
        return findings
    }

    /// What the finding says, at the later title's key: the other title's key (`other`, its place) and the
    /// key ids that tell the two keys, where both have one.
    package static func message(other: String, ours: String?, theirs: String?) -> String {
        let why =
            if let ours, let theirs {
                "for another key (KEYID 0x\(ours) here, KEYID 0x\(theirs) there)"
            } else {
                "and no KEYID says they share its key"
            }
        return "this FairPlay URI is also the one of another title, at \(other) \(why): a license server answers one key for "
            + "a URI, so one of the titles would play with the other's; give each title its own URIs"
    }
}
