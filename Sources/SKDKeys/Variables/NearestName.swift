/// The name a mistyped one most likely meant, for the messages that answer a misspelt option, template,
/// variable or rule with "did you mean".
public enum NearestName {
    /// The name of `names` nearest to `word` (by edits, or one that starts with it), if one is near enough to
    /// be what was meant.
    public static func nearest(to word: String, in names: [String]) -> String? {
        let scored = names.map { (name: $0, distance: distance(word, $0)) }
        guard let best = scored.min(by: { $0.distance < $1.distance }) else { return nil }
        if best.distance <= max(2, word.count / 3) { return best.name }
        return names.first { $0.hasPrefix(word) && word.count >= 3 }
    }

    /// Levenshtein distance: insertions, deletions and substitutions of characters.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
