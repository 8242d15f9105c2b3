/// Builds a ``PlaylistInspection`` by reading a playlist to its end.
public enum PlaylistInspector {
    public static func inspect(_ reader: PlaylistReader) throws(IOError) -> PlaylistInspection {
        var inspection = PlaylistInspection(path: reader.path)
        var diagnostics: [Diagnostic] = []
        let previousHandler = reader.onDiagnostic
        reader.onDiagnostic = { diagnostic in
            diagnostics.append(diagnostic)
            previousHandler(diagnostic)
        }
        var segment = SegmentContext()
        var pendingVariant: InspectedVariant?
        while let line = try reader.next() {
            switch line.kind {
            case .tag:
                guard let tag = line.parseTag() else { continue }
                inspection.tags.append(describe(tag, line: line.raw.number))
                segment.note(tag)
                if let stream = VariantStreamTag(tag) {
                    let variant = InspectedVariant(line: line.raw.number, stream: stream)
                    if stream.isIFrameOnly { inspection.variants.append(variant) } else { pendingVariant = variant }
                }
            case .uri:
                let uri = line.raw.part == .whole ? line.text : ""
                switch line.uriRole {
                case .variant?:
                    if var variant = pendingVariant {
                        variant.stream.uri = uri
                        inspection.variants.append(variant)
                        pendingVariant = nil
                    }
                case .segment(let index)?:
                    inspection.segments.append(segment.finish(index: index, line: line.raw.number, uri: uri, keys: reader.keysInForce))
                case nil:
                    break
                }
            case .comment, .blank:
                break
            }
        }
        inspection.kind = reader.kind
        inspection.lineCount = reader.lineCount
        for (name, definition) in reader.variables.definitions {
            if case .value(let value) = definition { inspection.variables[name] = value }
        }
        inspection.diagnostics = diagnostics
        reader.onDiagnostic = previousHandler
        return inspection
    }

    private static func describe(_ tag: Tag, line: Int) -> InspectedTag {
        var inspected = InspectedTag(line: line, name: tag.spelledName, known: tag.name != nil, value: nil, attributes: nil)
        switch tag.value {
        case .none: break
        case .decimalInteger(let value): inspected.value = .integer(value)
        case .segmentDuration(let duration, let title): inspected.value = .segmentDuration(duration: duration, title: title)
        case .byteRange(let length, let offset): inspected.value = .byteRange(length: length, offset: offset)
        case .dateTime(let text), .enumerated(let text), .text(let text): inspected.value = .string(text)
        case .attributes:
            inspected.attributes = tag.typedAttributes.map { attribute, typed in
                let type = tag.definition?.spec(for: attribute).map(\.type.rawValue) ?? "unspecified"
                return InspectedAttribute(name: attribute.name, column: attribute.column, type: type, value: value(typed))
            }
        }
        return inspected
    }

    private static func value(_ typed: TypedAttributeValue) -> InspectedValue {
        switch typed {
        case .decimalInteger(let value): .integer(value)
        case .decimalFloatingPoint(let value), .signedDecimalFloatingPoint(let value): .number(value)
        case .hexadecimalSequence(let digits): .string("0x" + digits)
        case .quotedString(let text), .enumeratedString(let text), .unspecified(let text, _): .string(text)
        case .decimalResolution(let width, let height): .resolution(width: width, height: height)
        }
    }

    /// What the tags before a segment's URI said about it.
    private struct SegmentContext {
        var duration: Double?
        var title: String?
        var byteRange: InspectedValue?
        var discontinuity = false
        var map: String?

        mutating func note(_ tag: Tag) {
            switch (tag.name, tag.value) {
            case (.extInf?, .segmentDuration(let seconds, let text)):
                duration = seconds
                title = text
            case (.byteRange?, .byteRange(let length, let offset)):
                byteRange = .byteRange(length: length, offset: offset)
            case (.discontinuity?, _):
                discontinuity = true
            case (.map?, _):
                map = MapTag(tag)?.uri
            default:
                break
            }
        }

        /// The segment ending at this URI; the map stays in force, the rest resets.
        mutating func finish(index: Int, line: Int, uri: String, keys: [KeyInForce]) -> InspectedSegment {
            defer {
                duration = nil
                title = nil
                byteRange = nil
                discontinuity = false
            }
            return InspectedSegment(
                index: index, line: line, uri: uri, duration: duration, title: title, byteRange: byteRange,
                discontinuity: discontinuity, map: map, keys: keys)
        }
    }
}
