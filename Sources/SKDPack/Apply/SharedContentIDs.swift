import SKDFiles
import SKDKeys

/// Content ids that several titles got from a match or path pattern. Two titles rarely share a content id;
/// twenty titles with one (`cid=legacy`, say) is almost always a pattern that captures too much, and
/// every one of them would ask the license server for the same title's keys.
///
/// The other side of the same mistake: one title whose keys got several content ids (`skd://(?<content_id>.+)`
/// over `skd://title-7/0` and `skd://title-7/1` takes the period along), each a title the license server
/// does not know.
public struct SharedContentIDs: Sendable {
    private var titlesByID: [String: [String]] = [:]
    /// Each title's key map (the fullest of its playlists', the title's whole): titles whose keys the same key
    /// ids tell share them. Kept as it is, looked into only for a content id several titles got.
    private var keyMaps: [String: KeyMap] = [:]
    /// Titles whose keys got more than one content id, with them, in the order met.
    public private(set) var titlesWithSeveral: [(title: String, ids: [String])] = []

    public init() {}

    /// Notes the content ids of a package's outcomes, for its title: the folder of `package` (its master,
    /// or a loose playlist, of which a folder may hold several).
    public mutating func add(_ outcomes: [PlaylistOutcome], package: String) {
        let title = AtomicFile.directory(of: package)
        let ids = Set(outcomes.flatMap(\.contentIDsFromPatterns))
        if !ids.isEmpty, let map = outcomes.max(by: { $0.keyMap.entries.count < $1.keyMap.entries.count })?.keyMap { keyMaps[title] = map }
        if ids.count > 1 { titlesWithSeveral.append((title, ids.sorted())) }
        for id in ids where titlesByID[id]?.contains(title) != true {
            titlesByID[id, default: []].append(title)
        }
    }

    /// Each content id more than one title got, with those titles, the most shared first; not one whose
    /// titles have the same keys (the same title in two places: they share its keys).
    public var shared: [(id: String, titles: [String])] {
        titlesByID.filter { _, titles in
            guard titles.count > 1 else { return false }
            let keys = titles.map(keys(of:))
            return keys[0].isEmpty || !keys.allSatisfy { $0 == keys[0] }
        }.map { (id: $0.key, titles: $0.value) }
            .sorted { ($0.titles.count, $1.id) > ($1.titles.count, $0.id) }
    }

    /// The keys of `title` that key ids tell (KEYIDs, key truth).
    private func keys(of title: String) -> Set<KeyEvidence> {
        Set(keyMaps[title]?.entries.map(\.evidence).filter { $0.kind == .keyID || $0.kind == .keyTruth } ?? [])
    }
}
