import Glibc

/// Parses an attribute list (RFC 8216 section 4.2) from a line's bytes.
///
/// The grammar is strict (no whitespace, upper-case names, no repeated names, closed quotes), but the
/// parser recovers from each error and keeps going, so one line can report all of its problems and the
/// attributes it could read stay usable.
public struct AttributeListParser {
    /// The attributes read, and the problems found, with columns relative to the whole line.
    public struct Result: Sendable {
        public var list: AttributeList
        public var issues: [LineIssue]
    }

    /// Parses `line[start...]` as an attribute list.
    public static func parse(_ line: UnsafeRawBufferPointer, from start: Int) -> Result {
        var spans: [AttributeSpan] = []
        var issues: [LineIssue] = []
        scan(line, from: start, into: &spans, issues: &issues)
        return Result(list: AttributeList(line: Array(line), spans: spans), issues: issues)
    }

    /// Finds the attributes of `line[start...]` without copying anything: appends their spans to `spans`
    /// and the problems found to `issues`.
    public static func scan(
        _ line: UnsafeRawBufferPointer, from start: Int, into spans: inout [AttributeSpan], issues: inout [LineIssue]
    ) {
        // The caller's arrays are swapped in and out, not copied: their buffers are reused without a
        // retain or a release (atomic operations, dear at every tag line).
        var parser = AttributeListParser(line: line, position: start, spans: [], issues: [])
        swap(&parser.spans, &spans)
        swap(&parser.issues, &issues)
        parser.run()
        swap(&parser.spans, &spans)
        swap(&parser.issues, &issues)
    }

    private let line: UnsafeRawBufferPointer
    private var position: Int
    private var spans: [AttributeSpan]
    private var issues: [LineIssue]
    private var reportedWhitespace = false

    private init(line: UnsafeRawBufferPointer, position: Int, spans: [AttributeSpan], issues: [LineIssue]) {
        self.line = line
        self.position = position
        self.spans = spans
        self.issues = issues
    }

    private var atEnd: Bool { position >= line.count }
    private var current: UInt8 { line.baseAddress.unsafelyUnwrapped.load(fromByteOffset: position, as: UInt8.self) }

    private mutating func run() {
        while !atEnd {
            skipWhitespace()
            let pairStart = position
            guard let nameRange = readName() else {
                report(ParseDiagnostics.attributeSyntax, "expected an attribute NAME (A-Z, 0-9, -)", at: position)
                skipToNextComma()
                continue
            }
            skipWhitespace()
            guard !atEnd, current == UInt8(ascii: "=") else {
                report(
                    ParseDiagnostics.attributeSyntax, "expected '=' after attribute name \(text(nameRange))",
                    at: position)
                skipToNextComma()
                continue
            }
            position += 1
            skipWhitespace()
            let valueStart = position
            let quoted = readValue(of: nameRange)
            if spans.contains(where: { sameBytes($0.nameRange, nameRange) }) {
                report(
                    ParseDiagnostics.attributeDuplicate,
                    "attribute \(text(nameRange)) appears more than once; keep one", at: pairStart)
            }
            spans.append(AttributeSpan(nameRange: nameRange, valueRange: valueStart..<position, isQuoted: quoted))
            skipWhitespace()
            if atEnd { break }
            if current == UInt8(ascii: ",") {
                position += 1
                if atEnd {
                    report(ParseDiagnostics.attributeSyntax, "remove the trailing comma", at: position - 1)
                }
            } else if quoted, let comma = attributeInside(valueStart..<position) {
                // `URI="skd://x,KEYFORMAT="…"`: the value's closing quote is missing, and the next value's
                // opening quote closed it; said where the quote belongs, not where the parse stopped.
                report(
                    ParseDiagnostics.attributeSyntax,
                    "the quoted value of \(text(nameRange)) runs on into \(text(comma.name))=: a closing '\"' is missing before "
                        + "this comma", at: comma.at)
                skipToNextComma()
            } else {
                report(
                    ParseDiagnostics.attributeSyntax,
                    "expected ',' after the value of \(text(nameRange))", at: position)
                skipToNextComma()
            }
        }
    }

    /// In the quoted value at `range` (its quotes included), the first `,NAME=` (NAME an attribute name):
    /// where the value's closing quote was left out. The comma's index and the name's range.
    private func attributeInside(_ range: Range<Int>) -> (at: Int, name: Range<Int>)? {
        guard range.count > 2 else { return nil }
        var index = range.lowerBound + 1
        while index < range.upperBound - 1 {
            if line[index] == UInt8(ascii: ",") {
                var end = index + 1
                while end < range.upperBound - 1, Self.isNameByte(line[end]) { end += 1 }
                if end > index + 1, end < range.upperBound - 1, line[end] == UInt8(ascii: "=") { return (index, (index + 1)..<end) }
            }
            index += 1
        }
        return nil
    }

    /// Reads `[A-Z0-9-]+`; lower-case letters are read too (and reported) so the attribute is kept.
    private mutating func readName() -> Range<Int>? {
        let start = position
        var lowerCase = false
        while !atEnd {
            let byte = current
            if Self.isNameByte(byte) {
                position += 1
            } else if byte >= UInt8(ascii: "a"), byte <= UInt8(ascii: "z") {
                lowerCase = true
                position += 1
            } else {
                break
            }
        }
        guard position > start else { return nil }
        if lowerCase {
            let name = text(start..<position)
            report(ParseDiagnostics.attributeSyntax, "attribute name \(name) must be upper case", at: start)
        }
        return start..<position
    }

    /// Reads a value and returns whether it was quoted; `position` ends after it.
    private mutating func readValue(of nameRange: Range<Int>) -> Bool {
        let name = nameRange  // named for the messages below, which decode it only when they are made
        if !atEnd, current == UInt8(ascii: "\"") {
            let open = position
            position += 1
            let rest = UnsafeRawBufferPointer(rebasing: line[position...])
            position = rest.firstOffset(of: UInt8(ascii: "\"")).map { position + $0 } ?? line.count
            if atEnd {
                report(
                    ParseDiagnostics.unterminatedQuote,
                    "the quoted value of \(text(name)) has no closing '\"'", at: open)
            } else {
                position += 1
            }
            return true
        }
        let start = position
        while !atEnd, current != UInt8(ascii: ","), current != UInt8(ascii: " "), current != UInt8(ascii: "\t") {
            if current == UInt8(ascii: "\"") {
                report(
                    ParseDiagnostics.attributeSyntax,
                    "unexpected '\"' inside the unquoted value of \(text(name))", at: position)
            }
            position += 1
        }
        if position == start {
            report(ParseDiagnostics.attributeSyntax, "attribute \(text(name)) has an empty value", at: start)
        }
        return false
    }

    private func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: line[range]), as: UTF8.self)
    }

    private func sameBytes(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        a.count == b.count && memcmp(line.baseAddress! + a.lowerBound, line.baseAddress! + b.lowerBound, a.count) == 0
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        guard !atEnd, current == UInt8(ascii: " ") || current == UInt8(ascii: "\t") else { return }
        let start = position
        while !atEnd, current == UInt8(ascii: " ") || current == UInt8(ascii: "\t") { position += 1 }
        if position > start, !reportedWhitespace {
            reportedWhitespace = true
            report(
                ParseDiagnostics.attributeWhitespace,
                "remove the whitespace: attribute lists allow none outside quoted strings", at: start)
        }
    }

    /// Error recovery: continue after the next comma that is not inside quotes.
    private mutating func skipToNextComma() {
        var inQuotes = false
        while !atEnd {
            let byte = current
            position += 1
            if byte == UInt8(ascii: "\"") { inQuotes.toggle() }
            if byte == UInt8(ascii: ","), !inQuotes { return }
        }
    }

    private mutating func report(_ kind: DiagnosticKind, _ message: String, at index: Int) {
        issues.append(LineIssue(kind, message, column: index + 1))
    }

    /// Whether `byte` may stand in an attribute name (RFC 8216 4.2: `[A-Z0-9-]`), which the writer holds
    /// the names it writes to as well.
    @inline(__always)
    static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
    }
}
