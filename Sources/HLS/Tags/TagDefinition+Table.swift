// The tag table: RFC 8216 section 4.3, extended with the tags and attributes of rfc8216bis (LL-HLS,
// DATERANGE CUE, content steering, variable definitions). Section numbers are RFC 8216's where the tag is
// there, `bis` otherwise.

private typealias A = AttributeSpec

private let keyAttributes: [AttributeSpec] = [
    A("METHOD", .enumeratedString, required: true), A("URI", .quotedString),
    A("IV", .hexadecimalSequence), A("KEYFORMAT", .quotedString), A("KEYFORMATVERSIONS", .quotedString),
]

private let variantAttributes: [AttributeSpec] = [
    A("BANDWIDTH", .decimalInteger, required: true), A("AVERAGE-BANDWIDTH", .decimalInteger),
    A("SCORE", .decimalFloatingPoint), A("CODECS", .quotedString), A("SUPPLEMENTAL-CODECS", .quotedString),
    A("RESOLUTION", .decimalResolution), A("HDCP-LEVEL", .enumeratedString), A("ALLOWED-CPC", .quotedString),
    A("VIDEO-RANGE", .enumeratedString), A("REQ-VIDEO-LAYOUT", .quotedString),
    A("STABLE-VARIANT-ID", .quotedString), A("VIDEO", .quotedString), A("PATHWAY-ID", .quotedString),
    A("PROGRAM-ID", .decimalInteger),
]

extension TagDefinition {
    fileprivate init(_ name: TagName, _ grammar: TagValueGrammar, _ section: String) {
        self.init(name: name, grammar: grammar, specSection: section)
    }

    /// The definitions, grouped by the length of their tag's name: a lookup compares the handful of names of
    /// that length instead of hashing one (a `TagName` hashes its raw value, a `String`: 345 instructions at
    /// every tag line the reader checks).
    static let byNameLength: [[TagDefinition]] = {
        var buckets = Array(repeating: [TagDefinition](), count: table.map(\.name.rawValue.utf8.count).max()! + 1)
        for definition in table {
            let length = definition.name.rawValue.utf8.count
            precondition(!buckets[length].contains { $0.name == definition.name }, "#\(definition.name.rawValue) defined twice")
            buckets[length].append(definition)
        }
        return buckets
    }()

    /// Every definition, one a tag (``byNameLength`` refuses a second; a test holds that each name has one).
    static let table: [TagDefinition] = [
        TagDefinition(.extM3U, .none, "4.3.1.1"),
        TagDefinition(.version, .decimalInteger, "4.3.1.2"),
        TagDefinition(.extInf, .segmentDuration, "4.3.2.1"),
        TagDefinition(.byteRange, .byteRange, "4.3.2.2"),
        TagDefinition(.discontinuity, .none, "4.3.2.3"),
        TagDefinition(.key, .attributeList(keyAttributes), "4.3.2.4"),
        TagDefinition(
            .map,
            .attributeList([A("URI", .quotedString, required: true), A("BYTERANGE", .quotedString)]),
            "4.3.2.5"),
        TagDefinition(.programDateTime, .dateTime, "4.3.2.6"),
        TagDefinition(.gap, .none, "bis 4.4.4.7"),
        TagDefinition(.bitrate, .decimalInteger, "bis 4.4.4.8"),
        TagDefinition(
            .part,
            .attributeList([
                A("URI", .quotedString, required: true), A("DURATION", .decimalFloatingPoint, required: true),
                A("INDEPENDENT", .enumeratedString), A("BYTERANGE", .quotedString), A("GAP", .enumeratedString),
            ]), "bis 4.4.4.9"),
        TagDefinition(
            .dateRange,
            .attributeList([
                A("ID", .quotedString, required: true), A("CLASS", .quotedString),
                A("START-DATE", .quotedString), A("CUE", .quotedString), A("END-DATE", .quotedString),
                A("DURATION", .decimalFloatingPoint), A("PLANNED-DURATION", .decimalFloatingPoint),
                A("SCTE35-CMD", .hexadecimalSequence), A("SCTE35-OUT", .hexadecimalSequence),
                A("SCTE35-IN", .hexadecimalSequence), A("END-ON-NEXT", .enumeratedString),
            ]), "4.3.2.7"),
        TagDefinition(.targetDuration, .decimalInteger, "4.3.3.1"),
        TagDefinition(.mediaSequence, .decimalInteger, "4.3.3.2"),
        TagDefinition(.discontinuitySequence, .decimalInteger, "4.3.3.3"),
        TagDefinition(.endList, .none, "4.3.3.4"),
        TagDefinition(.playlistType, .enumerated(["EVENT", "VOD"]), "4.3.3.5"),
        TagDefinition(.iFramesOnly, .none, "4.3.3.6"),
        TagDefinition(
            .partInf,
            .attributeList([A("PART-TARGET", .decimalFloatingPoint, required: true)]),
            "bis 4.4.3.7"),
        TagDefinition(
            .serverControl,
            .attributeList([
                A("CAN-SKIP-UNTIL", .decimalFloatingPoint), A("CAN-SKIP-DATERANGES", .enumeratedString),
                A("HOLD-BACK", .decimalFloatingPoint), A("PART-HOLD-BACK", .decimalFloatingPoint),
                A("CAN-BLOCK-RELOAD", .enumeratedString),
            ]), "bis 4.4.3.8"),
        TagDefinition(
            .skip,
            .attributeList([
                A("SKIPPED-SEGMENTS", .decimalInteger, required: true),
                A("RECENTLY-REMOVED-DATERANGES", .quotedString),
            ]), "bis 4.4.5.2"),
        TagDefinition(
            .preloadHint,
            .attributeList([
                A("TYPE", .enumeratedString, required: true), A("URI", .quotedString, required: true),
                A("BYTERANGE-START", .decimalInteger), A("BYTERANGE-LENGTH", .decimalInteger),
            ]), "bis 4.4.5.3"),
        TagDefinition(
            .renditionReport,
            .attributeList([
                A("URI", .quotedString, required: true), A("LAST-MSN", .decimalInteger),
                A("LAST-PART", .decimalInteger),
            ]), "bis 4.4.5.4"),
        TagDefinition(
            .media,
            .attributeList([
                A("TYPE", .enumeratedString, required: true), A("URI", .quotedString),
                A("GROUP-ID", .quotedString, required: true), A("LANGUAGE", .quotedString),
                A("ASSOC-LANGUAGE", .quotedString), A("NAME", .quotedString, required: true),
                A("STABLE-RENDITION-ID", .quotedString), A("DEFAULT", .enumeratedString),
                A("AUTOSELECT", .enumeratedString), A("FORCED", .enumeratedString),
                A("INSTREAM-ID", .quotedString), A("BIT-DEPTH", .decimalInteger),
                A("SAMPLE-RATE", .decimalInteger), A("CHARACTERISTICS", .quotedString),
                A("CHANNELS", .quotedString),
            ]), "4.3.4.1"),
        TagDefinition(
            .streamInf,
            .attributeList(
                variantAttributes + [
                    A("FRAME-RATE", .decimalFloatingPoint), A("AUDIO", .quotedString),
                    A("SUBTITLES", .quotedString), A("CLOSED-CAPTIONS", .quotedStringOrNone),
                ]), "4.3.4.2"),
        TagDefinition(
            .iFrameStreamInf,
            .attributeList(variantAttributes + [A("URI", .quotedString, required: true)]), "4.3.4.3"),
        TagDefinition(
            .sessionData,
            .attributeList([
                A("DATA-ID", .quotedString, required: true), A("VALUE", .quotedString),
                A("URI", .quotedString), A("FORMAT", .enumeratedString), A("LANGUAGE", .quotedString),
            ]), "4.3.4.4"),
        TagDefinition(.sessionKey, .attributeList(keyAttributes), "4.3.4.5"),
        TagDefinition(
            .contentSteering,
            .attributeList([A("SERVER-URI", .quotedString, required: true), A("PATHWAY-ID", .quotedString)]),
            "bis 4.4.6.6"),
        TagDefinition(.independentSegments, .none, "4.3.5.1"),
        TagDefinition(
            .start,
            .attributeList([
                A("TIME-OFFSET", .signedDecimalFloatingPoint, required: true), A("PRECISE", .enumeratedString),
            ]), "4.3.5.2"),
        TagDefinition(
            .define,
            .attributeList([
                A("NAME", .quotedString), A("VALUE", .quotedString), A("IMPORT", .quotedString),
                A("QUERYPARAM", .quotedString),
            ]), "bis 4.4.2.3"),
        TagDefinition(.allowCache, .enumerated(["YES", "NO"]), "7"),
    ]
}
