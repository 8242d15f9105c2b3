/// One change `apply` made (or would make) to a playlist.
public struct ApplyChange: Hashable, Sendable, Codable {
    public enum Action: String, Hashable, Sendable, Codable {
        case rewritten
        case inserted
        case removed
    }

    /// The line in the original playlist: the line changed or removed, or the line the new one follows.
    public var line: Int
    /// The tag, without `#`: `EXT-X-KEY`, `EXT-X-SESSION-KEY`, `EXT-X-VERSION`.
    public var tag: String
    public var action: Action
    /// The line before (not for an insertion), with secrets redacted.
    public var before: String?
    /// The line after (not for a removal), with secrets redacted.
    public var after: String?

    public init(line: Int, tag: String, action: Action, before: String?, after: String?) {
        self.line = line
        self.tag = tag
        self.action = action
        self.before = before
        self.after = after
    }
}
