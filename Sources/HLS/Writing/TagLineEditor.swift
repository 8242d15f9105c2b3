/// A value that cannot be written into an attribute list without changing its structure.
public struct UnwritableAttributeValue: Error, Hashable, Sendable, CustomStringConvertible {
    public var attribute: String
    public var reason: String

    public var description: String { "cannot write \(attribute): \(reason)" }
}

/// Changes attributes of one tag line and keeps every other byte: the tag name as spelled, the order of
/// attributes, and the spelling of the attributes it does not touch.
///
/// ```swift
/// var editor = TagLineEditor(line: bytes, attributes: tag.attributes!)
/// try editor.setQuotedString("URI", "skd://new-id")
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

    /// Sets `name` to the quoted-string `value`, in place if present, else appended at the end.
    ///
    /// Throws if `value` holds what a quoted-string may not: `"`, CR, LF (RFC 8216 4.2) or any other
    /// control character, which could end the line or the attribute and inject new ones.
    public mutating func setQuotedString(_ name: String, _ value: String) throws(UnwritableAttributeValue) {
        // Printable ASCII (what key URIs are) is decided on bytes; anything else is looked at per scalar.
        let printableASCII = value.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") }
        if !printableASCII {
            for scalar in value.unicodeScalars {
                if scalar == "\"" || scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                    throw UnwritableAttributeValue(
                        attribute: name, reason: "a quoted-string cannot hold U+\(String(scalar.value, radix: 16, uppercase: true))")
                }
            }
        }
        var raw: [UInt8] = [UInt8(ascii: "\"")]
        raw.reserveCapacity(value.utf8.count + 2)
        raw += value.utf8
        raw.append(UInt8(ascii: "\""))
        set(name, raw: raw)
    }

    /// Sets `name` to an unquoted value (enumerated-string, number, hexadecimal-sequence) written as given.
    public mutating func setUnquoted(_ name: String, _ value: String) throws(UnwritableAttributeValue) {
        guard !value.isEmpty,
            value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ",") && $0 != UInt8(ascii: "\"") })
        else {
            throw UnwritableAttributeValue(attribute: name, reason: "an unquoted value must be printable ASCII without ',', '\"' or spaces")
        }
        set(name, raw: Array(value.utf8))
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
