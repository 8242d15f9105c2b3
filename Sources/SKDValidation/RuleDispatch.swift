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
    /// The rules a run of plain segments goes to (``ValidationRule/segments(_:in:)``): those that take
    /// `EXTINF` or watch segments.
    let runRules: [Int]

    init(_ rules: [any ValidationRule.Type]) {
        tags = rules.map { $0.tags }
        everyTag = rules.indices.filter { rules[$0].tags == nil }
        segmentRules = rules.indices.filter { rules[$0].watchesSegments }
        runRules = rules.indices.filter { rules[$0].watchesSegments || rules[$0].tags?.contains(.extInf) ?? true }
    }

    /// The name asked for last and its rules: a media playlist asks for EXTINF's at every segment, and a
    /// comparison of two names costs less than hashing one.
    private var last: (name: TagName, rules: [Int])?

    /// The rules for a tag named `name` (`nil`: a tag this library does not know), in registry order.
    mutating func rules(for name: TagName?) -> [Int] {
        guard let name else { return everyTag }
        if let last, last.name == name { return last.rules }
        let indices = byName[name] ?? tags.indices.filter { tags[$0]?.contains(name) ?? true }
        byName[name] = indices
        last = (name, indices)
        return indices
    }
}
