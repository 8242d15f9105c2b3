import HLS

/// Which rules a line goes to: for each tag, the rules that name it (or take every tag), and the rules
/// that look at segments. Worked out once per tag name and kept, so that the EXTINF of each of a million
/// segments reaches the few rules that want it, not all of them.
struct RuleDispatch {
    private let tags: [Set<TagName>?]
    private var byName: [TagName: [Int]] = [:]
    /// The rules that take every tag, unknown ones included.
    let everyTag: [Int]
    let segmentRules: [Int]

    init(_ rules: [any ValidationRule.Type]) {
        tags = rules.map { $0.tags }
        everyTag = rules.indices.filter { rules[$0].tags == nil }
        segmentRules = rules.indices.filter { rules[$0].watchesSegments }
    }

    /// The rules for a tag named `name` (`nil`: a tag this library does not know), in registry order.
    mutating func rules(for name: TagName?) -> [Int] {
        guard let name else { return everyTag }
        if let known = byName[name] { return known }
        let indices = tags.indices.filter { tags[$0]?.contains(name) ?? true }
        byName[name] = indices
        return indices
    }
}
