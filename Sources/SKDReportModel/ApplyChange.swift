import SKDTemplate

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
    public var before: Redacted?
    /// The line after (not for a removal), with secrets redacted.
    public var after: Redacted?
    /// For a FairPlay key written from key truth: the key id (a UUID), where it came from (`cpix` or
    /// `media`), and the file (the CPIX document, or the init segment). Added in schema version 1.1.
    public var kid: String?
    public var kidSource: KeyIDSource?
    public var kidFile: String?

    /// Where a key id written came from.
    public enum KeyIDSource: String, Hashable, Sendable, Codable {
        case cpix, media
    }

    public init(
        line: Int, tag: String, action: Action, before: Redacted?, after: Redacted?, kid: String? = nil, kidSource: KeyIDSource? = nil,
        kidFile: String? = nil
    ) {
        self.line = line
        self.tag = tag
        self.action = action
        self.before = before
        self.after = after
        self.kid = kid
        self.kidSource = kidSource
        self.kidFile = kidFile
    }
}
