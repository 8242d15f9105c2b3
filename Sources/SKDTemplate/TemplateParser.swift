/// Reads template text into literal and placeholder segments.
enum TemplateParser {
    static func parse(_ source: String) throws(TemplateSyntaxError) -> [Template.Segment] {
        var segments: [Template.Segment] = []
        var literal = ""
        let characters = Array(source.unicodeScalars)
        var index = 0
        // Columns count UTF-8 bytes, like every column skdpack reports.
        func column(_ position: Int) -> Int {
            characters[..<position].reduce(1) { $0 + UTF8.width($1) }
        }
        while index < characters.count {
            let scalar = characters[index]
            switch scalar {
            case "{" where index + 1 < characters.count && characters[index + 1] == "{":
                literal.append("{")
                index += 2
            case "}" where index + 1 < characters.count && characters[index + 1] == "}":
                literal.append("}")
                index += 2
            case "{", "<":
                let close: Unicode.Scalar = scalar == "{" ? "}" : ">"
                guard let end = characters[(index + 1)...].firstIndex(of: close) else {
                    throw TemplateSyntaxError(
                        message: "'\(scalar)' opens a placeholder that is never closed with '\(close)'"
                            + (scalar == "{" ? " (write {{ for a literal brace)" : ""),
                        column: column(index))
                }
                // Scalar by scalar: a view made of the slice at once instantiates a generic type at run time,
                // whose first use in a process costs a scan of the runtime's conformances.
                var body = ""
                for scalar in characters[(index + 1)..<end] { body.unicodeScalars.append(scalar) }
                let placeholder = try placeholder(body, column: column(index))
                if !literal.isEmpty { segments.append(.literal(literal)) }
                literal = ""
                segments.append(.placeholder(placeholder))
                index = end + 1
            case "}", ">":
                throw TemplateSyntaxError(
                    message: "'\(scalar)' closes no placeholder" + (scalar == "}" ? " (write }} for a literal brace)" : ""),
                    column: column(index))
            default:
                guard URIEscaping.isURICharacter(scalar) else {
                    throw TemplateSyntaxError(
                        message: "U+\(hex4(scalar)) may not stand in a URI; "
                            + "write it percent-encoded",
                        column: column(index))
                }
                literal.unicodeScalars.append(scalar)
                index += 1
            }
        }
        if !literal.isEmpty { segments.append(.literal(literal)) }
        return segments
    }

    private static func placeholder(_ body: String, column: Int) throws(TemplateSyntaxError) -> Template.Placeholder {
        let parts = body.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        let name = parts[0]
        guard isVariableName(name) else {
            throw TemplateSyntaxError(
                message: name.isEmpty
                    ? "a placeholder needs a variable name"
                    : "'\(name)' is not a variable name (letters, digits and _, not starting with a digit)",
                column: column + 1)
        }
        var filters: [TemplateFilter] = []
        for filterName in parts.dropFirst() {
            guard let filter = TemplateFilter(rawValue: filterName) else {
                let known = TemplateFilter.allCases.map(\.rawValue).joined(separator: ", ")
                throw TemplateSyntaxError(
                    message: "unknown filter '\(filterName)' on \(name) (filters: \(known))", column: column + 1)
            }
            filters.append(filter)
        }
        return Template.Placeholder(name: name, filters: filters, column: column)
    }

    /// `[A-Za-z_][A-Za-z0-9_]*`
    static func isVariableName(_ name: String) -> Bool {
        guard let first = name.utf8.first, first == UInt8(ascii: "_") || isLetter(first) else { return false }
        return name.utf8.allSatisfy { $0 == UInt8(ascii: "_") || isLetter($0) || isDigit($0) }
    }

    /// Whether `name` can name a template: ASCII letters, digits, `.`, `_` and `-` (it names a file too).
    static func isTemplateName(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy {
                isLetter($0) || isDigit($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
            }
    }

    /// ASCII letters and digits, told by their bytes (a scalar's Unicode properties are a table lookup each).
    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// A scalar's code as Unicode writes it, at least four hex digits: `000A`.
    private static func hex4(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
