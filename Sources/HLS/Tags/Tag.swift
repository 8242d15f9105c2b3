/// The value of a tag, read by the grammar of its ``TagDefinition``.
public enum TagValue: Hashable, Sendable {
    case none
    case decimalInteger(UInt64)
    /// `EXTINF`: the duration in seconds and the (possibly empty) title.
    case segmentDuration(duration: Double, title: String)
    case byteRange(length: UInt64, offset: UInt64?)
    case dateTime(String)
    case enumerated(String)
    case attributes(AttributeList)
    /// The value of an unknown tag, or of a known one whose value could not be read, as written.
    case text(String)
}

/// One tag line, parsed.
public struct Tag: Hashable, Sendable {
    /// `nil` for a tag this library does not know (it is kept, byte for byte, like any other line).
    public var name: TagName?
    /// The name as written, without `#`.
    public var spelledName: String
    public var value: TagValue
    /// 1-based column of the first byte after `:`, or `nil` if the tag has no `:`.
    public var valueColumn: Int?

    public init(name: TagName?, spelledName: String, value: TagValue, valueColumn: Int?) {
        self.name = name
        self.spelledName = spelledName
        self.value = value
        self.valueColumn = valueColumn
    }

    public var definition: TagDefinition? { name.map(TagDefinition.of) }

    /// The attribute list, for tags that have one.
    public var attributes: AttributeList? {
        if case .attributes(let list) = value { return list }
        return nil
    }

    /// Each attribute with its value read as the type the tag defines (``TypedAttributeValue/unspecified(_:quoted:)``
    /// for attributes the tag does not define, or whose value is not of the defined type).
    public var typedAttributes: [(attribute: Attribute, value: TypedAttributeValue)] {
        guard let list = attributes else { return [] }
        return list.map { attribute in
            let typed = definition?.spec(for: attribute).flatMap { attribute.typedValue(as: $0.type) }
            return (attribute, typed ?? .unspecified(attribute.text, quoted: attribute.isQuoted))
        }
    }

    /// The quoted-string value of attribute `name`.
    public func quotedString(_ name: String) -> String? {
        guard let attribute = attributes?[name], attribute.isQuoted else { return nil }
        return attribute.text
    }

    /// The unquoted value of attribute `name` (enumerated-strings and numbers as written).
    public func unquoted(_ name: String) -> String? {
        guard let attribute = attributes?[name], !attribute.isQuoted else { return nil }
        return attribute.text
    }

    public func decimalInteger(_ name: String) -> UInt64? {
        attributes?[name].flatMap { NumberParsing.decimalInteger($0.textBytes) }
    }

    public func decimalFloat(_ name: String) -> Double? {
        attributes?[name].flatMap { NumberParsing.decimalFloat($0.textBytes, signed: true) }
    }
}
