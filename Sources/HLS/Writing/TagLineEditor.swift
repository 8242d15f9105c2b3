import SKDBytes

/// Changes attributes of one tag line and keeps every other byte: the tag name as spelled, the order of
/// attributes, and the spelling of the attributes it does not touch. Values are checked like
/// ``TagLineWriter``'s: an edit can never split the line or add an attribute nobody set.
///
/// ```swift
/// var editor = TagLineEditor(line: bytes, attributes: tag.attributes!)
/// try editor.set("URI", .quotedString("skd://new-id"))
/// let rewritten = editor.render()
/// ```
public struct TagLineEditor: Sendable {
    private enum Edit: Sendable {
        case replaceValue(Range<Int>, [UInt8])
        case removePair(Range<Int>)
    }

    public let original: [UInt8]
    private var attributes: AttributeList
    private var edits: [Edit] = []
    private var appended: [[UInt8]] = []

    /// `line` is the tag line's content (no terminator); `attributes` its parsed attribute list.
    public init(line: [UInt8], attributes: AttributeList) {
        self.original = line
        self.attributes = attributes
    }

    /// Whether any change was made.
    public var hasChanges: Bool { !edits.isEmpty || !appended.isEmpty }

    /// Sets `name` to `value`, in place if present, else appended at the end; throws (and changes nothing)
    /// when `value` does not fit its type or `name` is not an attribute name.
    public mutating func set(_ name: String, _ value: AttributeValue) throws(UnwritableAttributeValue) {
        guard TagLineWriter.isName(name) else { throw UnwritableAttributeValue(attribute: name, type: value.type, problem: .invalidName) }
        set(name, raw: try value.encoded(as: name))
    }

    /// `line` with the value of its attribute `attribute` replaced by `value`, every other byte kept: the
    /// one-edit case (a key's URI) without building an editor, checked the same way.
    public static func replacingValue(
        of attribute: Attribute, with value: AttributeValue
    ) throws(UnwritableAttributeValue) -> [UInt8] {
        let encoded = try value.encoded(as: attribute.name)
        let line = attribute.line
        var output: [UInt8] = []
        output.reserveCapacity(line.count - attribute.valueRange.count + encoded.count)
        output += line[..<attribute.valueRange.lowerBound]
        output += encoded
        output += line[attribute.valueRange.upperBound...]
        return output
    }

    /// The same for a quoted-string, checked and spliced on its bytes (``appendReplacingValue(at:named:in:withQuotedString:to:)``):
    /// no array is made of the value, and no `String` of the attribute's name unless it is refused.
    public static func replacingValue(of attribute: Attribute, withQuotedString text: String) throws(UnwritableAttributeValue) -> [UInt8] {
        var text = text
        var output: [UInt8] = []
        var failure: UnwritableAttributeValue?
        text.withUTF8 { utf8 in
            attribute.line.withUnsafeBytes { line in
                output.reserveCapacity(line.count - attribute.valueRange.count + utf8.count + 2)
                do throws(UnwritableAttributeValue) {
                    try appendReplacingValue(at: attribute.valueRange, named: attribute.name, in: line, withQuotedString: utf8, to: &output)
                } catch {
                    failure = error
                }
            }
        }
        if let failure { throw failure }
        return output
    }

    /// Appends to `output` the tag line `line` with the value at `valueRange` (of the attribute `name`)
    /// replaced by the quoted-string whose UTF-8 bytes are `utf8`, every other byte kept: a key URI
    /// rendered in a buffer, written without an editor, an `Attribute` or a `String`. Checked as
    /// ``AttributeValue/quotedString(_:)`` is: printable ASCII, what key URIs are, is decided on the bytes;
    /// anything else takes the `String` check, and its message. Throws (and appends nothing) when refused.
    public static func appendReplacingValue(
        at valueRange: Range<Int>, named name: @autoclosure () -> String, in line: UnsafeRawBufferPointer,
        withQuotedString utf8: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]
    ) throws(UnwritableAttributeValue) {
        var buffer = ByteBuffer()
        try appendReplacingValue(at: valueRange, named: name(), in: line, withQuotedString: utf8, to: &buffer)
        output += buffer.array
    }

    /// The same into a buffer kept from line to line (a key line rewritten at every key period).
    package static func appendReplacingValue(
        at valueRange: Range<Int>, named name: @autoclosure () -> String, in line: UnsafeRawBufferPointer,
        withQuotedString utf8: UnsafeBufferPointer<UInt8>, to output: inout ByteBuffer
    ) throws(UnwritableAttributeValue) {
        let plain = AttributeValue.isPlainQuotedString(utf8)
        // Anything but plain bytes is encoded (and refused, before anything is appended) as the editor does.
        let encoded = plain ? nil : try AttributeValue.quotedString(String(decoding: utf8, as: UTF8.self)).encoded(as: name())
        let before = UnsafeRawBufferPointer(rebasing: line[..<valueRange.lowerBound])
        let after = UnsafeRawBufferPointer(rebasing: line[valueRange.upperBound...])
        if let encoded {
            output.append(before)
            output.append(contentsOf: encoded)
            output.append(after)
            return
        }
        // The line's room taken once (not checked at each of five pieces), the pieces copied into it.
        output.append(count: before.count + utf8.count + 2 + after.count) { room in
            var at = 0
            func copy(_ piece: UnsafeRawBufferPointer) {
                if let source = piece.baseAddress, !piece.isEmpty {
                    room.baseAddress!.advanced(by: at).copyMemory(from: source, byteCount: piece.count)
                }
                at += piece.count
            }
            copy(before)
            room[at] = UInt8(ascii: "\"")
            at += 1
            copy(UnsafeRawBufferPointer(utf8))
            room[at] = UInt8(ascii: "\"")
            at += 1
            copy(after)
        }
    }

    /// Removes attribute `name` and the comma that separated it.
    public mutating func remove(_ name: String) {
        guard let attribute = attributes[name] else { return }
        var range = attribute.pairRange
        if range.upperBound < original.count, original[range.upperBound] == UInt8(ascii: ",") {
            range = range.lowerBound..<(range.upperBound + 1)
        } else if range.lowerBound > 0, original[range.lowerBound - 1] == UInt8(ascii: ",") {
            range = (range.lowerBound - 1)..<range.upperBound
        }
        edits.append(.removePair(range))
        attributes.removeAll(named: name)
    }

    private mutating func set(_ name: String, raw: [UInt8]) {
        if let attribute = attributes[name] {
            edits.removeAll {
                if case .replaceValue(let range, _) = $0 { return range == attribute.valueRange }
                return false
            }
            edits.append(.replaceValue(attribute.valueRange, raw))
        } else {
            appended.removeAll { $0.starts(with: Array(name.utf8) + [UInt8(ascii: "=")]) }
            appended.append(Array(name.utf8) + [UInt8(ascii: "=")] + raw)
        }
    }

    /// The edited line (content only, no terminator).
    public func render() -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(original.count + 64)
        var cursor = 0
        let ordered = edits.sorted { lowerBound(of: $0) < lowerBound(of: $1) }
        for edit in ordered {
            switch edit {
            case .replaceValue(let range, let bytes):
                output += original[cursor..<range.lowerBound]
                output += bytes
                cursor = range.upperBound
            case .removePair(let range):
                output += original[cursor..<range.lowerBound]
                cursor = range.upperBound
            }
        }
        output += original[cursor...]
        if !appended.isEmpty, !original.contains(UInt8(ascii: ":")) { output.append(UInt8(ascii: ":")) }
        for pair in appended {
            if output.last != UInt8(ascii: ":"), output.last != UInt8(ascii: ",") {
                output.append(UInt8(ascii: ","))
            }
            output += pair
        }
        return output
    }

    private func lowerBound(of edit: Edit) -> Int {
        switch edit {
        case .replaceValue(let range, _), .removePair(let range): range.lowerBound
        }
    }
}
