import SKDBytes

/// An attribute list seen through the bytes of its line and its spans, lent rather than owned: what a
/// caller asks of a line the reader has just read (``PlaylistReader/withCurrentAttributes(_:)``) costs no
/// copy of the list and no reference counted. ``AttributeList`` answers the same questions through it.
public struct AttributeListView {
    public let line: UnsafeRawBufferPointer
    public let spans: UnsafeBufferPointer<AttributeSpan>

    public init(line: UnsafeRawBufferPointer, spans: UnsafeBufferPointer<AttributeSpan>) {
        self.line = line
        self.spans = spans
    }

    /// The first attribute named `name`.
    public subscript(name: String) -> AttributeView? {
        firstSpan(named: name).map { AttributeView(line: line, span: $0) }
    }

    /// Whether the first attribute named `name` is written as `text` (inside the quotes, for a quoted
    /// value), quoted or not as `quoted` says (`nil`: either).
    public func attribute(_ name: String, is text: String, quoted: Bool? = nil) -> Bool {
        guard let span = firstSpan(named: name), quoted == nil || span.isQuoted == quoted else { return false }
        return Bytes.equal(AttributeView(line: line, span: span).textBytes, text)
    }

    /// The span of the first attribute named `name`: names of another length are passed over on their
    /// count, as most of a key's are when one is looked for.
    private func firstSpan(named name: String) -> AttributeSpan? {
        let count = name.utf8.count
        for span in spans where span.nameRange.count == count && AttributeView(line: line, span: span).isNamed(name) {
            return span
        }
        return nil
    }
}
