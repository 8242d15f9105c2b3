import HLS

/// What a broken key map is, as a finding: a URI for two keys (`validate`), or a template that folds two
/// keys into one URI (`apply`, which keeps the map as it writes), or a key with two URIs.
public enum KeyMapDiagnostics {
    /// Said by `apply`, which would write the one URI: the map it keeps as it writes refuses it.
    public static let rotationFolded = DiagnosticKind(
        id: "TPL-rotation-folded", severity: .error,
        summary: "Two key periods in a row have different keys but the template gives them one URI: a player keeps the "
            + "first period's key for both.",
        specSection: "4.3.2.4")
    public static let uriTwoKeys = DiagnosticKind(
        id: "FPS-uri-two-keys", severity: .error,
        summary: "One FairPlay URI stands for two content keys (their KEYIDs or key truth differ): the license server "
            + "answers one key for it, so one of the periods cannot play.",
        specSection: "4.3.2.4; FairPlay Streaming Programming Guide (the skd URI names the content key)")
    public static let keyTwoURIs = DiagnosticKind(
        id: "FPS-key-two-uris", severity: .error,
        summary: "One content key (one KEYID or key-truth key) has two FairPlay URIs in a title: the license server must "
            + "know it under both, and a player fetches it twice.",
        specSection: "4.3.2.4; FairPlay Streaming Programming Guide (the skd URI names the content key)")
}

extension KeyMap.Conflict {
    /// The finding a conflict is: `writing`, met by `apply` while it renders (a template that folds two
    /// keys into one URI is `TPL-rotation-folded`), else by `validate`.
    package func kind(writing: Bool) -> DiagnosticKind {
        switch self {
        case .oneURIForTwoKeys: writing ? KeyMapDiagnostics.rotationFolded : KeyMapDiagnostics.uriTwoKeys
        case .twoURIsForOneKey: KeyMapDiagnostics.keyTwoURIs
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
