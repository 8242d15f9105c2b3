/// Reads the YAML that template files are written in: block mappings and sequences by indentation,
/// plain, single- and double-quoted scalars, literal (`|`) and folded (`>`) block scalars, flow
/// collections (`[a, b]`, `{k: v}`, so JSON too), and comments.
///
/// What template files have no use for is refused with a clear message, not guessed at: anchors and
/// aliases, tags, several documents in one file, complex keys, tabs for indentation. skdpack reads YAML
/// itself rather than through a library so that the binary needs nothing but the standard library and
/// starts in a few milliseconds (a packaging pipeline starts it once per title).
public enum YAMLReader {
    /// How deep collections may nest: template files need three or four levels; a bound keeps a hostile
    /// file (`[[[[…` ten thousand deep) from overflowing the stack.
    public static let maximumDepth = 64

    /// The document in `text`, or `nil` for a text with nothing but comments and blank lines.
    public static func read(_ text: String) throws(YAMLError) -> YAMLNode? {
        // Lines of Unicode scalars, not Characters: CR LF is one Character, and a combining mark after a
        // quote or a colon would merge with it and hide it.
        // One pass (a generic split and a map cost a template file's start-up more than its parse).
        var lines: [[Unicode.Scalar]] = []
        var line: [Unicode.Scalar] = []
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                lines.append(line)
                line.removeAll(keepingCapacity: true)
            } else {
                line.append(scalar)
            }
        }
        lines.append(line)
        let endsWithLineBreak = lines.count > 1 && lines.last!.isEmpty
        if endsWithLineBreak { lines.removeLast() }
        for (number, line) in lines.enumerated() {
            if line.last == "\r" { lines[number].removeLast() }
            // YAML reads a lone CR as a line break of its own; template files have no use for it.
            if let cr = lines[number].firstIndex(of: "\r") {
                throw YAMLError(
                    message: "a carriage return that does not end a line (CR LF)", mark: YAMLMark(line: number + 1, column: cr + 1))
            }
        }
        if let first = lines.first, first.first == "\u{FEFF}" { lines[0].removeFirst() }
        var parser = BlockParser(lines: lines, endsWithLineBreak: endsWithLineBreak)
        return try parser.document()
    }
}

/// The block structure, line by line.
private struct BlockParser {
    var lines: [[Unicode.Scalar]]
    /// Whether the last line ends with a line break, which a block scalar that ends there keeps.
    let endsWithLineBreak: Bool
    var index = 0
    var depth = 0

    init(lines: [[Unicode.Scalar]], endsWithLineBreak: Bool) {
        self.lines = lines
        self.endsWithLineBreak = endsWithLineBreak
    }

    mutating func document() throws(YAMLError) -> YAMLNode? {
        try skipEmpty()
        guard index < lines.count else { return nil }
        if lines[index].starts(with: Self.directivesEnd) {
            let rest = lines[index].dropFirst(3).drop { $0 == " " }
            guard rest.isEmpty || rest.first == "#", lines[index].count == 3 || lines[index][3] == " " else {
                throw YAMLError(message: "write the document's value on the line after ---", mark: mark(index, 0))
            }
            index += 1
            try skipEmpty()
        }
        guard index < lines.count else { return nil }
        let node = try block(indent: indentation(lines[index]))
        try skipEmpty()
        if index < lines.count {
            if lines[index].starts(with: Self.directivesEnd) || lines[index].starts(with: Self.documentEnd) {
                throw YAMLError(message: "only one YAML document per template file", mark: mark(index, 0))
            }
            throw YAMLError(
                message: "this line is not part of the structure above it (check its indentation)",
                mark: mark(index, indentation(lines[index])))
        }
        return node
    }

    // MARK: Lines

    func indentation(_ line: [Unicode.Scalar]) -> Int { line.prefix { $0 == " " }.count }

    static let directivesEnd: [Unicode.Scalar] = ["-", "-", "-"]
    static let documentEnd: [Unicode.Scalar] = [".", ".", "."]

    func isDocumentMarker(_ line: [Unicode.Scalar]) -> Bool {
        line.starts(with: Self.directivesEnd) || line.starts(with: Self.documentEnd)
    }

    /// Whether a line holds only spaces and perhaps a comment.
    func isEmpty(_ line: [Unicode.Scalar]) -> Bool {
        let rest = line.drop { $0 == " " }
        return rest.isEmpty || rest.first == "#"
    }

    mutating func skipEmpty() throws(YAMLError) {
        while index < lines.count, isEmpty(lines[index]) {
            if let tab = lines[index].firstIndex(of: "\t"), lines[index][..<tab].allSatisfy({ $0 == " " }),
                lines[index].contains(where: { $0 != " " && $0 != "\t" })
            {
                throw YAMLError(message: "indent with spaces, not tabs", mark: mark(index, tab))
            }
            index += 1
        }
        if index < lines.count, lines[index].first == "\t" || lines[index].drop(while: { $0 == " " }).first == "\t" {
            throw YAMLError(message: "indent with spaces, not tabs", mark: mark(index, indentation(lines[index])))
        }
    }

    func mark(_ line: Int, _ column: Int) -> YAMLMark { YAMLMark(line: line + 1, column: column + 1) }

    // MARK: Blocks

    /// The node starting on the current line, at `indent`.
    mutating func block(indent: Int) throws(YAMLError) -> YAMLNode {
        depth += 1
        defer { depth -= 1 }
        guard depth <= YAMLReader.maximumDepth else {
            throw YAMLError(message: "nested more than \(YAMLReader.maximumDepth) levels deep", mark: mark(index, indent))
        }
        let line = lines[index]
        let content = Array(line[indent...])
        if content.first == "-", content.count == 1 || content[1] == " " { return try sequence(indent: indent) }
        if content.first == "|" || content.first == ">" {
            throw YAMLError(message: "a block scalar (| or >) goes after a key or a '-'", mark: mark(index, indent))
        }
        if let refused = refusal(content) { throw YAMLError(message: refused, mark: mark(index, indent)) }
        if content.first == "[" || content.first == "{" {
            return try flow(startingAt: index, column: indent)
        }
        if keyEnd(content) != nil { return try mapping(indent: indent) }
        let node = try scalar(content, line: index, column: indent)
        index += 1
        return node
    }

    mutating func mapping(indent: Int) throws(YAMLError) -> YAMLNode {
        let start = mark(index, indent)
        var entries: [YAMLEntry] = []
        var keys: Set<String> = []
        while index < lines.count {
            try skipEmpty()
            guard index < lines.count, indentation(lines[index]) == indent, !isDocumentMarker(lines[index]) else { break }
            let line = lines[index]
            let content = Array(line[indent...])
            guard let colon = keyEnd(content) else {
                throw YAMLError(message: "expected 'key: value' in this mapping", mark: mark(index, indent))
            }
            if content.first == "?" {
                throw YAMLError(message: "complex keys (?) are not used in template files", mark: mark(index, indent))
            }
            let keyText = Array(content[..<colon])
            let key = try scalar(keyText, line: index, column: indent)
            if let name = key.string, !keys.insert(name).inserted {
                throw YAMLError(message: "the key '\(name)' appears twice", mark: mark(index, indent))
            }
            let valueStart = indent + colon + 1
            let rest = Array(line[valueStart...])
            let trimmed = rest.drop { $0 == " " }
            let valueColumn = valueStart + (rest.count - trimmed.count)
            let value: YAMLNode
            if trimmed.isEmpty || trimmed.first == "#" {
                index += 1
                try skipEmpty()
                if index < lines.count, indentation(lines[index]) > indent {
                    value = try block(indent: indentation(lines[index]))
                } else if index < lines.count, indentation(lines[index]) == indent,
                    lines[index][indent...].first == "-", lines[index].count == indent + 1 || lines[index][indent + 1] == " "
                {
                    value = try sequence(indent: indent)
                } else {
                    value = .scalar("", plain: true, mark(index - 1, valueColumn))
                }
            } else if trimmed.first == "|" || trimmed.first == ">" {
                value = try blockScalar(Array(trimmed), parentIndent: indent, column: valueColumn)
            } else if trimmed.first == "[" || trimmed.first == "{" {
                value = try flow(startingAt: index, column: valueColumn)
            } else {
                if let refused = refusal(Array(trimmed)) { throw YAMLError(message: refused, mark: mark(index, valueColumn)) }
                value = try scalar(Array(trimmed), line: index, column: valueColumn)
                index += 1
            }
            entries.append(YAMLEntry(key: key, value: value))
        }
        return .mapping(entries, start)
    }

    mutating func sequence(indent: Int) throws(YAMLError) -> YAMLNode {
        let start = mark(index, indent)
        var items: [YAMLNode] = []
        while index < lines.count {
            try skipEmpty()
            guard index < lines.count, indentation(lines[index]) == indent else { break }
            let line = lines[index]
            guard line[indent] == "-", line.count == indent + 1 || line[indent + 1] == " " else { break }
            let rest = line[(indent + 1)...]
            let trimmed = rest.drop { $0 == " " }
            if trimmed.isEmpty || trimmed.first == "#" {
                index += 1
                try skipEmpty()
                guard index < lines.count, indentation(lines[index]) > indent else {
                    items.append(.scalar("", plain: true, mark(index - 1, indent + 2)))
                    continue
                }
                items.append(try block(indent: indentation(lines[index])))
            } else if trimmed.first == "|" || trimmed.first == ">" {
                let column = indent + 1 + (rest.count - trimmed.count)
                items.append(try blockScalar(Array(trimmed), parentIndent: indent, column: column))
            } else {
                // `- key: value` starts a mapping indented to where its key is: read it as if the dash
                // were a space.
                let itemIndent = indent + 1 + (rest.count - trimmed.count)
                lines[index][indent] = " "
                items.append(try block(indent: itemIndent))
            }
        }
        return .sequence(items, start)
    }

    /// `|` or `>`, with an optional chomping indicator (`-` strip, `+` keep) and indentation indicator (a
    /// digit: the text's indentation past its parent's), then the more indented lines.
    mutating func blockScalar(_ header: [Unicode.Scalar], parentIndent: Int, column: Int) throws(YAMLError) -> YAMLNode {
        let start = mark(index, column)
        let folded = header[0] == ">"
        var chomping: Unicode.Scalar = " "
        var explicitIndent: Int?
        var position = 1
        while position < header.count, header[position] != " " {
            let character = header[position]
            if character == "-" || character == "+", chomping == " " {
                chomping = character
            } else if ("1"..."9").contains(character), explicitIndent == nil {
                explicitIndent = parentIndent + Int(character.value - 0x30)
            } else {
                throw YAMLError(
                    message: "'\(header[0])' takes only '-' or '+' and a digit from 1 to 9 (the text's indentation)", mark: start)
            }
            position += 1
        }
        let rest = header[position...].drop { $0 == " " }
        guard rest.isEmpty || rest.first == "#" else {
            throw YAMLError(message: "the block's text starts on the next line; only a comment may follow '\(header[0])'", mark: start)
        }
        index += 1
        // Lines of spaces only are empty lines (as many spaces as the content's indentation, or fewer) or
        // content lines of spaces (more); the content's indentation is the first other line's.
        var body: [[Unicode.Scalar]] = []
        var indent = explicitIndent
        var leadingSpaces = 0
        var lastContent: Int?
        let first = index
        while index < lines.count {
            let line = lines[index]
            if line.allSatisfy({ $0 == " " }) {
                if let indent {
                    body.append(line.count > indent ? Array(line[indent...]) : [])
                    if line.count > indent { lastContent = index }
                } else {
                    body.append([])
                    leadingSpaces = max(leadingSpaces, line.count)
                }
                index += 1
                continue
            }
            let lineIndent = indentation(line)
            if indent == nil {
                guard lineIndent > parentIndent else { break }
                // YAML 1.2 8.1.1.1: a leading empty line may not be more indented than the first content line.
                guard leadingSpaces <= parentIndent || leadingSpaces == lineIndent else {
                    throw YAMLError(message: "an empty line before this block's text has more spaces than its text", mark: mark(first, 0))
                }
                indent = lineIndent
            }
            guard lineIndent >= indent! else { break }
            body.append(Array(line[indent!...]))
            lastContent = index
            index += 1
        }
        // The line breaks after the text: one per line from its last line to the block's end, the file's
        // last line having one only if the file ends with a line break.
        let breaks = ((lastContent ?? first)..<index).count { $0 < lines.count - 1 || endsWithLineBreak }
        if let lastContent { body.removeLast(index - 1 - lastContent) } else { body.removeAll() }
        // Text lines joined: by their line breaks in a literal block; in a folded one a single break between
        // two lines becomes a space, unless either line starts with white space ("more indented"), and the
        // breaks of empty lines stay.
        var text = ""
        var previous: [Unicode.Scalar]?
        var empties = 0
        for line in body {
            if line.isEmpty {
                empties += 1
                continue
            }
            if let previous {
                let moreIndented = [" ", "\t"].contains(previous.first!) || [" ", "\t"].contains(line.first!)
                if folded, !moreIndented {
                    text += empties == 0 ? " " : String(repeating: "\n", count: empties)
                } else {
                    text += String(repeating: "\n", count: empties + 1)
                }
            } else {
                text += String(repeating: "\n", count: empties)
            }
            text.append(scalars: line)
            previous = line
            empties = 0
        }
        switch chomping {
        case "-": break
        case "+": text += String(repeating: "\n", count: breaks)
        default: if !body.isEmpty, breaks > 0 { text += "\n" }
        }
        return .scalar(text, plain: false, start)
    }

    // MARK: Scalars

    /// The column just after a mapping key's `:` (a `:` followed by a space or the end of the line,
    /// outside quotes and flow brackets), or `nil`.
    func keyEnd(_ content: [Unicode.Scalar]) -> Int? {
        var position = 0
        if let quote = content.first, quote == "\"" || quote == "'" {
            position = 1
            while position < content.count {
                if content[position] == "\\", quote == "\"" {
                    position += 2
                    continue
                }
                if content[position] == quote {
                    if quote == "'", position + 1 < content.count, content[position + 1] == "'" {
                        position += 2
                        continue
                    }
                    break
                }
                position += 1
            }
            position += 1
            guard position < content.count, content[position] == ":" else { return nil }
            return position + 1 == content.count || content[position + 1] == " " ? position : nil
        }
        if content.first == "[" || content.first == "{" || content.first == "#" { return nil }
        while position < content.count {
            if content[position] == ":", position + 1 == content.count || content[position + 1] == " " { return position }
            if content[position] == "#", position > 0, content[position - 1] == " " { return nil }
            position += 1
        }
        return nil
    }

    /// Why `content` is not read as a value (YAML features template files have no use for, and what YAML
    /// reads as structure rather than as a plain value), or `nil`.
    func refusal(_ content: [Unicode.Scalar]) -> String? {
        guard let first = content.first else { return nil }
        let alone = content.count == 1 || content[1] == " "
        switch first {
        case "&", "*": return "anchors and aliases (& and *) are not used in template files; write the value out"
        case "!": return "YAML tags (!) are not used in template files"
        case "%": return "YAML directives (%) are not used in template files"
        case "`", "@", ",", "]", "}": return "a plain value cannot start with '\(first)'; quote it"
        case "|", ">": return "'\(first)' starts a block scalar only as '\(first)', '\(first)-' or '\(first)+'; quote the value"
        case "?", ":",
            "-" where alone:
            return "'\(first)' and a space start a YAML structure here, not a value; quote the value"
        default: return nil
        }
    }

    /// A scalar on one line: quoted, or plain up to a comment.
    func scalar(_ content: [Unicode.Scalar], line: Int, column: Int) throws(YAMLError) -> YAMLNode {
        let at = mark(line, column)
        guard let first = content.first else { return .scalar("", plain: true, at) }
        if first == "\"" || first == "'" {
            var reader = FlowReader(text: content, startLine: line, startColumn: column)
            let node = try reader.quoted()
            reader.skipSpaces()
            guard reader.atEnd || reader.peek == "#" else {
                throw YAMLError(message: "unexpected text after the closing quote", mark: reader.mark)
            }
            return node
        }
        var end = content.count
        for position in content.indices where content[position] == "#" && position > 0 && content[position - 1] == " " {
            end = position
            break
        }
        let text = String(scalars: content[..<end]).trimmingTrailingSpaces()
        if text.unicodeScalars.contains("\t") {
            throw YAMLError(message: "a tab inside a plain value; quote the value", mark: at)
        }
        if text.utf8.last == UInt8(ascii: ":") || Self.holdsColonSpace(text) {
            throw YAMLError(message: "': ' inside a value starts a mapping, which YAML does not allow here; quote the value", mark: at)
        }
        return .scalar(text, plain: true, at)
    }

    /// Whether `text` holds `: `, read on its bytes as YAML reads code points: `String.contains` would
    /// search Characters through the string processing library, whose first use costs a template's start-up
    /// more than the rest of its reading.
    static func holdsColonSpace(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if previous == UInt8(ascii: ":"), byte == UInt8(ascii: " ") { return true }
            previous = byte
        }
        return false
    }

    // MARK: Flow

    /// A flow collection starting on line `startingAt`, which may span lines until it closes.
    mutating func flow(startingAt line: Int, column: Int) throws(YAMLError) -> YAMLNode {
        var text: [Unicode.Scalar] = Array(lines[line][column...])
        var lineStarts: [(offset: Int, line: Int, column: Int)] = [(0, line, column)]
        var end = line
        while true {
            var reader = FlowReader(text: text, lineStarts: lineStarts)
            do throws(YAMLError) {
                let node = try reader.node()
                reader.skipWhitespace()
                guard reader.atEnd || reader.peek == "#" else {
                    throw YAMLError(message: "unexpected text after the closing bracket", mark: reader.mark)
                }
                index = end + 1
                return node
            } catch {
                // A collection still open at the end of the line goes on on the next one. An error at the
                // start of a line no more indented than the opening one means the collection was never
                // closed and the text has moved on: say that, where it opens.
                let startIndent = indentation(lines[line])
                if error.mark.line - 1 > line, error.mark.column - 1 == indentation(lines[error.mark.line - 1]),
                    error.mark.column - 1 <= startIndent
                {
                    var final = YAMLError.unclosedFlow(at: mark(line, column))
                    final.kind = .malformed  // the text has moved on: reading the next line would not help
                    throw final
                }
                guard error.kind == .unclosedFlow, end + 1 < lines.count else { throw error }
                end += 1
                lineStarts.append((text.count + 1, end, 0))
                text.append("\n")
                text += lines[end]
            }
        }
    }
}

/// Flow collections and quoted scalars, character by character.
private struct FlowReader {
    let text: [Unicode.Scalar]
    let lineStarts: [(offset: Int, line: Int, column: Int)]
    var position = 0
    var depth = 0

    init(text: [Unicode.Scalar], startLine: Int, startColumn: Int) {
        self.text = text
        self.lineStarts = [(0, startLine, startColumn)]
    }

    init(text: [Unicode.Scalar], lineStarts: [(offset: Int, line: Int, column: Int)]) {
        self.text = text
        self.lineStarts = lineStarts
    }

    var atEnd: Bool { position >= text.count }
    var peek: Unicode.Scalar? { atEnd ? nil : text[position] }

    var mark: YAMLMark { mark(at: position) }

    func mark(at offset: Int) -> YAMLMark {
        let start = lineStarts.last { $0.offset <= offset } ?? lineStarts[0]
        return YAMLMark(line: start.line + 1, column: start.column + offset - start.offset + 1)
    }

    mutating func skipSpaces() { while peek == " " { position += 1 } }

    mutating func skipWhitespace() {
        while let character = peek {
            if character == " " || character == "\n" || character == "\t" {
                position += 1
            } else if character == "#" {
                while let next = peek, next != "\n" { position += 1 }
            } else {
                return
            }
        }
    }

    mutating func node() throws(YAMLError) -> YAMLNode {
        skipWhitespace()
        guard let character = peek else { throw YAMLError.unclosedFlow(at: mark) }
        // Each [ or { is a level of recursion: a bound keeps hostile input from overflowing the stack.
        depth += 1
        defer { depth -= 1 }
        guard depth <= YAMLReader.maximumDepth else {
            throw YAMLError(message: "nested more than \(YAMLReader.maximumDepth) levels deep", mark: mark)
        }
        switch character {
        case "{": return try mapping()
        case "[": return try sequence()
        case "\"", "'": return try quoted()
        default: return try plain()
        }
    }

    mutating func mapping() throws(YAMLError) -> YAMLNode {
        let start = mark
        position += 1
        var entries: [YAMLEntry] = []
        var keys: Set<String> = []
        while true {
            skipWhitespace()
            guard let character = peek else { throw YAMLError.unclosedFlow(at: start) }
            if character == "}" {
                position += 1
                return .mapping(entries, start)
            }
            if character == "," { throw YAMLError(message: "an empty entry (two commas, or a comma first); remove the comma", mark: mark) }
            let keyMark = mark
            let key = try node()
            skipWhitespace()
            guard peek == ":" else {
                if atEnd { throw YAMLError.unclosedFlow(at: start) }
                throw YAMLError(message: "expected ':' after a key", mark: mark)
            }
            position += 1
            if let name = key.string, !keys.insert(name).inserted {
                throw YAMLError(message: "the key '\(name)' appears twice", mark: keyMark)
            }
            let value = try node()
            entries.append(YAMLEntry(key: key, value: value))
            skipWhitespace()
            if peek == "," {
                position += 1
            } else if peek != "}" {
                if atEnd { throw YAMLError.unclosedFlow(at: start) }
                throw YAMLError(message: "expected ',' or '}'", mark: mark)
            }
        }
    }

    mutating func sequence() throws(YAMLError) -> YAMLNode {
        let start = mark
        position += 1
        var items: [YAMLNode] = []
        while true {
            skipWhitespace()
            guard let character = peek else { throw YAMLError.unclosedFlow(at: start) }
            if character == "]" {
                position += 1
                return .sequence(items, start)
            }
            if character == "," { throw YAMLError(message: "an empty entry (two commas, or a comma first); remove the comma", mark: mark) }
            items.append(try node())
            skipWhitespace()
            if peek == "," {
                position += 1
            } else if peek != "]" {
                if atEnd { throw YAMLError.unclosedFlow(at: start) }
                throw YAMLError(message: "expected ',' or ']'", mark: mark)
            }
        }
    }

    /// A plain scalar in flow context: up to `,`, `]`, `}`, `: ` or the end of the line.
    mutating func plain() throws(YAMLError) -> YAMLNode {
        let start = mark
        if let first = peek, "&*!%@`".unicodeScalars.contains(first) {
            throw YAMLError(message: "'\(first)' cannot start a value here; quote it", mark: start)
        }
        var value: [Unicode.Scalar] = []
        while let character = peek, character != ",", character != "]", character != "}", character != "\n" {
            if character == ":", position + 1 >= text.count || " \n,]}".unicodeScalars.contains(text[position + 1]) { break }
            if character == "#", value.last == " " { break }
            value.append(character)
            position += 1
        }
        return .scalar(String(scalars: value).trimmingTrailingSpaces(), plain: true, start)
    }

    /// A single- or double-quoted scalar on one line (double quotes with JSON's and YAML's escapes).
    mutating func quoted() throws(YAMLError) -> YAMLNode {
        let start = mark
        let quote = text[position]
        position += 1
        // UTF-8 bytes, made a `String` once at the closing quote.
        var value: [UInt8] = []
        while true {
            guard let character = peek, character != "\n" else {
                throw YAMLError(message: "this quoted value has no closing \(quote)", mark: start)
            }
            position += 1
            if character == quote {
                if quote == "'", peek == "'" {
                    value.append(UInt8(ascii: "'"))
                    position += 1
                    continue
                }
                return .scalar(String(decoding: value, as: UTF8.self), plain: false, start)
            }
            if character == "\\", quote == "\"" {
                value += try escape().utf8
            } else {
                UTF8.encode(character) { value.append($0) }
            }
        }
    }

    private mutating func escape() throws(YAMLError) -> String {
        let at = mark(at: position - 1)
        guard let character = peek else { throw YAMLError(message: "a \\ ends the line", mark: at) }
        position += 1
        switch character {
        case "\"": return "\""
        case "\\": return "\\"
        case "/": return "/"
        case "n": return "\n"
        case "t": return "\t"
        case "r": return "\r"
        case "0": return "\u{0}"
        case "b": return "\u{8}"
        case "a": return "\u{7}"
        case "v": return "\u{B}"
        case "\t": return "\t"
        case "N": return "\u{85}"
        case "_": return "\u{A0}"
        case "L": return "\u{2028}"
        case "P": return "\u{2029}"
        case "f": return "\u{C}"
        case "e": return "\u{1B}"
        case " ": return " "
        case "x", "u", "U":
            let count = character == "x" ? 2 : character == "u" ? 4 : 8
            guard position + count <= text.count, let value = UInt32(String(scalars: text[position..<(position + count)]), radix: 16),
                let scalar = Unicode.Scalar(value)
            else { throw YAMLError(message: "\\\(character) needs \(count) hex digits of a Unicode scalar", mark: at) }
            position += count
            return String(scalar)
        default:
            throw YAMLError(message: "unknown escape \\\(character)", mark: at)
        }
    }
}

extension String {
    /// The text of a run of scalars.
    fileprivate init(scalars: some Sequence<Unicode.Scalar>) {
        var text = ""
        text.append(scalars: scalars)
        self = text
    }

    /// Appends `scalars`, encoded into UTF-8 bytes first and appended at once (a scalar at a time, a
    /// `String` spends a few hundred instructions on each). Not `unicodeScalars.append(contentsOf:)`: that
    /// generic is not specialised for our sequences, and its first call in a process looks up an associated
    /// type among every conformance in the binary (about 0.07 ms, at each start that reads a template file).
    fileprivate mutating func append(scalars: some Sequence<Unicode.Scalar>) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(scalars.underestimatedCount)
        for scalar in scalars { UTF8.encode(scalar) { bytes.append($0) } }
        self += String(decoding: bytes, as: UTF8.self)
    }

    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return text
    }
}
