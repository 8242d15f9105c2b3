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
        var parser = AttributeListParser(line: line, position: start)
        parser.run()
        return Result(list: AttributeList(parser.attributes), issues: parser.issues)
    }

    private let line: UnsafeRawBufferPointer
    private var position: Int
    private var attributes: [Attribute] = []
    private var issues: [LineIssue] = []
    private var reportedWhitespace = false

    private init(line: UnsafeRawBufferPointer, position: Int) {
        self.line = line
        self.position = position
    }

    private var atEnd: Bool { position >= line.count }
    private var current: UInt8 { line[position] }

    private mutating func run() {
        while !atEnd {
            skipWhitespace()
            let pairStart = position
            guard let name = readName() else {
                report(ParseDiagnostics.attributeSyntax, "expected an attribute NAME (A-Z, 0-9, -)", at: position)
                skipToNextComma()
                continue
            }
            skipWhitespace()
            guard !atEnd, current == UInt8(ascii: "=") else {
                report(ParseDiagnostics.attributeSyntax, "expected '=' after attribute name \(name)", at: position)
                skipToNextComma()
                continue
            }
            position += 1
            skipWhitespace()
            let valueStart = position
            let (text, quoted) = readValue(of: name)
            let valueEnd = position
            let pairEnd = position
            if attributes.contains(where: { $0.name == name }) {
                report(
                    ParseDiagnostics.attributeDuplicate,
                    "attribute \(name) appears more than once; keep one", at: pairStart)
            }
            attributes.append(
                Attribute(
                    name: name, text: text, isQuoted: quoted, pairRange: pairStart..<pairEnd,
                    valueRange: valueStart..<valueEnd))
            skipWhitespace()
            if atEnd { break }
            if current == UInt8(ascii: ",") {
                position += 1
                if atEnd {
                    report(ParseDiagnostics.attributeSyntax, "remove the trailing comma", at: position - 1)
                }
            } else {
                report(
                    ParseDiagnostics.attributeSyntax,
                    "expected ',' after the value of \(name)", at: position)
                skipToNextComma()
            }
        }
    }

    /// Reads `[A-Z0-9-]+`; lower-case letters are read too (and reported) so the attribute is kept.
    private mutating func readName() -> String? {
        let start = position
        var lowerCase = false
        while !atEnd {
            let byte = current
            if isNameByte(byte) {
                position += 1
            } else if byte >= UInt8(ascii: "a"), byte <= UInt8(ascii: "z") {
                lowerCase = true
                position += 1
            } else {
                break
            }
        }
        guard position > start else { return nil }
        let name = String(decoding: UnsafeRawBufferPointer(rebasing: line[start..<position]), as: UTF8.self)
        if lowerCase {
            report(ParseDiagnostics.attributeSyntax, "attribute name \(name) must be upper case", at: start)
        }
        return name
    }

    private mutating func readValue(of name: String) -> (String, Bool) {
        if !atEnd, current == UInt8(ascii: "\"") {
            let open = position
            position += 1
            let contentStart = position
            while !atEnd, current != UInt8(ascii: "\"") { position += 1 }
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: line[contentStart..<position]), as: UTF8.self)
            if atEnd {
                report(
                    ParseDiagnostics.unterminatedQuote,
                    "the quoted value of \(name) has no closing '\"'", at: open)
            } else {
                position += 1
            }
            return (text, true)
        }
        let start = position
        while !atEnd, current != UInt8(ascii: ","), current != UInt8(ascii: " "), current != UInt8(ascii: "\t") {
            if current == UInt8(ascii: "\"") {
                report(
                    ParseDiagnostics.attributeSyntax,
                    "unexpected '\"' inside the unquoted value of \(name)", at: position)
            }
            position += 1
        }
        if position == start {
            report(ParseDiagnostics.attributeSyntax, "attribute \(name) has an empty value", at: start)
        }
        return (String(decoding: UnsafeRawBufferPointer(rebasing: line[start..<position]), as: UTF8.self), false)
    }

    private mutating func skipWhitespace() {
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

    @inline(__always)
    private func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
    }
}
