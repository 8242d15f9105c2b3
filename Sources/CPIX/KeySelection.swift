import MP4

/// The key a document gives one content key context (a track in a key period), by its usage rules.
public enum KeySelection: Sendable, Equatable {
    case key(ContentKey)
    /// No key: the rules considered, none of which selects the track.
    case none(considered: [UsageRule])
    /// More than one key: a document the spec calls invalid for this track.
    case ambiguous([ContentKey])
    /// The document's mapping cannot be used at all, and why.
    case unusable(String)
}

extension CPIXDocument {
    /// The key for `track`: the one whose usage rules select it. A document without rules gives its only
    /// key to every track (what Shaka Packager and SPEKE v1 do); with several keys and no rules there is
    /// nothing to choose by.
    public func select(for track: TrackContext) -> KeySelection { select(for: track, among: usageRules) }

    /// The same, with the rules that could select the track already picked out of ``usageRules`` (those
    /// of its period, and those for any period): a key-rotated document has a rule per key and period.
    public func select(for track: TrackContext, among rules: [UsageRule]) -> KeySelection {
        if let reason = unusableMapping { return .unusable(reason) }
        guard !usageRules.isEmpty else {
            return keys.count == 1 ? .key(keys[0]) : keys.isEmpty ? .none(considered: []) : .ambiguous(keys)
        }
        var chosen: [ContentKey] = []
        for rule in rules where rule.matches(track) {
            if let key = key(rule.kid), !chosen.contains(key) { chosen.append(key) }
        }
        switch chosen.count {
        case 0: return .none(considered: rules)
        case 1: return .key(chosen[0])
        default: return .ambiguous(chosen)
        }
    }
}
