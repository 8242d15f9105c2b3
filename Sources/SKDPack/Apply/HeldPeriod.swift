import HLS
import SKDBytes
import SKDKeys

/// The lines of a key period that wait for its first segment: from a FairPlay key whose URI needs what the
/// period may still say (`kid` may stand after it), or from the first line after a key while a FairPlay
/// key may be inserted after the period's last key; every line after one that waits waits too. Their
/// bytes one after another in a buffer that keeps its capacity from one period to the next, and each
/// line's place in it. (Most periods hold nothing: their keys are written as they are read.) A line here
/// is numbers: held lines that were values of their own (an array of bytes, a parsed key) cost atomic
/// reference counting at every period.
struct HeldPeriod {
    enum Line {
        /// Bytes passed on as they are, terminators included: `lineCount` lines, the first numbered
        /// `firstLine`.
        case bytes(Range<Int>, firstLine: Int, lineCount: Int)
        /// A key line written as it is (another system's, or a FairPlay key FairPlay cannot use): its
        /// content and terminator.
        case key(Range<Int>, terminator: LineTerminator, line: Int)
        /// A FairPlay key to rewrite: its content and terminator as read, and where its attributes stand.
        case fairPlayKey(Range<Int>, terminator: LineTerminator, line: Int, spans: FairPlayKeySpans)
    }

    private(set) var bytes = ByteBuffer()
    private(set) var lines: [Line] = []

    var isEmpty: Bool { lines.isEmpty }

    /// Holds lines passed on as they are (a run, or a line that is not a key).
    mutating func hold(_ raw: UnsafeRawBufferPointer, firstLine: Int, lineCount: Int) {
        lines.append(.bytes(append(raw), firstLine: firstLine, lineCount: lineCount))
    }

    /// Holds a key line written as it is: `raw` is its content and terminator.
    mutating func holdKey(_ raw: UnsafeRawBufferPointer, terminator: LineTerminator, line: Int) {
        lines.append(.key(append(raw), terminator: terminator, line: line))
    }

    /// Holds a FairPlay key to rewrite: `raw` is its content and terminator.
    mutating func holdFairPlayKey(_ raw: UnsafeRawBufferPointer, terminator: LineTerminator, line: Int, spans: FairPlayKeySpans) {
        lines.append(.fairPlayKey(append(raw), terminator: terminator, line: line, spans: spans))
    }

    /// Empties the period, keeping the storage for the next.
    mutating func removeAll() {
        bytes.removeAll()
        lines.removeAll(keepingCapacity: true)
    }

    private mutating func append(_ raw: UnsafeRawBufferPointer) -> Range<Int> {
        let start = bytes.count
        bytes.append(raw)
        return start..<bytes.count
    }
}

/// Where a FairPlay key line's URI, METHOD and KEYFORMATVERSIONS stand in it, as the reader found them:
/// enough to rewrite its URI in place, and to tell whether that is all that changes.
struct FairPlayKeySpans {
    /// The URI, when it is a quoted-string without `{$…}`: then its bytes are what a player requests, and
    /// the new URI replaces it in place.
    var uri: AttributeSpan?
    var method: AttributeSpan?
    var keyFormatVersions: AttributeSpan?

    /// Whether the key's METHOD is FairPlay's, `SAMPLE-AES` as an enumerated string: only such a key is
    /// rewritten.
    let isSampleAES: Bool

    /// The spans of the key `attributes` says: the first of each name, found in one walk over the spans
    /// (a key is read at every period; four lookups by name cost four walks and four `String`s).
    init(_ attributes: AttributeListView) {
        var uri: AttributeSpan?
        for span in attributes.spans {
            // Told apart by their lengths first: one comparison of bytes a span at most.
            let name = UnsafeRawBufferPointer(rebasing: attributes.line[span.nameRange])
            switch name.count {
            case 3 where uri == nil && Self.is(name, "URI"): uri = span
            case 6 where method == nil && Self.is(name, "METHOD"): method = span
            case 17 where keyFormatVersions == nil && Self.is(name, "KEYFORMATVERSIONS"): keyFormatVersions = span
            default: continue
            }
        }
        if let uri, uri.isQuoted, !AttributeView(line: attributes.line, span: uri).mayReferenceVariable { self.uri = uri }
        isSampleAES =
            method.map { !$0.isQuoted && Bytes.equal(UnsafeRawBufferPointer(rebasing: attributes.line[$0.valueRange]), FairPlay.method) }
            ?? false
    }

    private static func `is`(_ bytes: UnsafeRawBufferPointer, _ text: StaticString) -> Bool {
        Bytes.equal(bytes, UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}
