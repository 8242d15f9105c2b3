/// A key that applies to the segments that follow it: the most recent `EXT-X-KEY` of its KEYFORMAT
/// (RFC 8216 section 4.3.2.4).
public struct KeyInForce: Hashable, Sendable, Codable {
    public var key: KeyTag
    /// The line of the `EXT-X-KEY` tag.
    public var line: Int

    public init(key: KeyTag, line: Int) {
        self.key = key
        self.line = line
    }
}
