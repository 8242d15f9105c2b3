import HLS
import SKDKeys
import SKDReportModel

/// One FairPlay URI per key (``KeyMap``): a license server answers one content key for a URI, so a URI
/// that stands for two keys plays one of them with the wrong key, and a key with two URIs is fetched
/// twice and must be known to the server under both. Judged on what tells each period's key: key truth,
/// else a `KEYID` of the period's key tags; where neither is there, nobody here can tell, and nothing is said.
/// Run over a title (a master's media playlists, or one media playlist alone); `apply` keeps the same map
/// while it writes (``KeyMap/Conflict/kind(writing:)``).
enum KeyMapRule {

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
