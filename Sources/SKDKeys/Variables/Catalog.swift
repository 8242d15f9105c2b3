import SKDFiles
import SKDTemplate

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Variables per title, from a CSV file (a header row, then a row a title) or a JSON file.
///
/// A row applies to a playlist whose path is its `path` column, or whose title directory is its
/// `title_dir` column (`path` wins). Every other column is a variable:
///
/// ```csv
/// title_dir,content_id,entitlement_url
/// multi-drm-title,title-2001,https://lic.example.com/fps
/// ```
///
/// JSON: an object of such rows keyed by title directory, or an array of row objects.
public struct Catalog: Sendable {
    public struct Row: Sendable {
        public var values: [String: String]
        /// Where the row is, for messages: `titles.csv row 3`.
        public var source: String
    }

    public let path: String
    private var byPath: [String: Row] = [:]
    private var byTitle: [String: Row] = [:]

    public struct LoadError: Error, Sendable, CustomStringConvertible {
        public var path: String
        /// `nil` for the file as a whole (it cannot be read, or a JSON catalogue, which has no rows by line).
        public var line: Int?
        public var message: String
        public var description: String { "\(path):\(line.map { "\($0):" } ?? "") error: \(message)" }
    }

    /// The row for `playlist`, if the catalogue has one.
    public func row(for playlist: PlaylistIdentity) -> Row? { match(for: playlist)?.row }

    /// The row of `playlist`, and whether it was found by its title folder's base name only (a `title_dir`
    /// of one name where the title lies deeper under its input: two such titles would share the row, which
    /// a run refuses). A `path` row names the playlist's path relative to its input, or as given; a
    /// `title_dir` row the title's folder relative to its input, or its base name.
    public func match(for playlist: PlaylistIdentity) -> (row: Row, byBaseName: Bool)? {
        if let relative = playlist.relativePath, let row = byPath[relative] { return (row, false) }
        if let row = byPath[Self.normalized(playlist.path)] { return (row, false) }
        let directory = playlist.titleRelativeDirectory ?? ""
        if directory.contains("/"), let row = byTitle[directory] { return (row, false) }
        // A title given deeper than the catalogue was written from (`lib/show-a/ep01`, its row `show-a/ep01`):
        // the longest row that ends its folder's path.
        if hasPathRows {
            let parts = PathComponents.of(PathComponents.normalized(AtomicFile.directory(of: playlist.titlePath ?? playlist.path)))
            var suffix = parts.last ?? ""
            var found: Row?
            for part in parts.dropLast().reversed() {
                suffix = part + "/" + suffix
                if let row = byTitle[suffix] { found = row }
            }
            if let found { return (found, false) }
        }
        return byTitle[playlist.titleDirectory].map { ($0, directory.contains("/")) }
    }

    /// Whether a `title_dir` row is a path (`show-a/ep01`).
    private var hasPathRows = false

    /// A path or title folder as a row may write it: without `./` in front or `/` behind.
    static func normalized(_ path: String) -> String {
        var path = Substring(path)
        while path.hasPrefix("./") { path = path.dropFirst(2) }
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        return String(path)
    }

    /// The rows that give `name` the value `value`, by their source (`cat.csv row 3`), in file order.
    public func rows(giving name: String, _ value: String) -> [String] {
        let sources = (Array(byPath.values) + Array(byTitle.values)).filter { $0.values[name] == value }.map(\.source)
        // Rows in file order: `row 9` before `row 10`.
        return Array(Set(sources)).sorted { ($0.count, $0) < ($1.count, $1) }
    }

    /// The variables the catalogue gives (its columns, `path` and `title_dir` aside).
    public var columns: Set<String> {
        Set(byPath.values.flatMap(\.values.keys)).union(byTitle.values.flatMap(\.values.keys))
    }

    public var rowCount: Int { Set(byPath.values.map(\.source)).union(byTitle.values.map(\.source)).count }

    public static func load(path: String) throws(LoadError) -> Catalog {
        let bytes: [UInt8]
        do {
            bytes = try TextFile.bytes(path)
        } catch {
            throw LoadError(path: path, line: nil, message: "cannot read the catalogue: \(error.reason)")
        }
        // A value in another encoding (a spreadsheet's Windows-1252, say) would reach the URIs as U+FFFD.
        if let line = TextFile.firstLineNotUTF8(bytes) {
            throw LoadError(path: path, line: line, message: "this line is not UTF-8; save the catalogue as UTF-8")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        return path.lowercased().hasSuffix(".json") ? try json(text, path: path) : try csv(text, path: path)
    }

    /// Reads CSV (RFC 4180: quoted fields, doubled quotes, commas and line breaks inside quotes).
    public static func csv(_ text: String, path: String) throws(LoadError) -> Catalog {
        let records = try CSVReader.records(text, path: path)
        guard let (headerLine, header) = records.first else {
            throw LoadError(path: path, line: 1, message: "the catalogue is empty; it needs a header row")
        }
        guard header.contains("path") || header.contains("title_dir") else {
            throw LoadError(
                path: path, line: headerLine,
                message: "the header needs a 'path' or a 'title_dir' column; it reads: \(header.map { "'\($0)'" }.joined(separator: ", "))")
        }
        if let name = header.first(where: Self.hasSurroundingSpace) {
            throw LoadError(path: path, line: headerLine, message: "the column name '\(name)' has spaces around it; remove them")
        }
        if let duplicate = header.first(where: { name in header.filter { $0 == name }.count > 1 }) {
            throw LoadError(path: path, line: headerLine, message: "the column '\(duplicate)' appears twice")
        }
        var catalog = Catalog(path: path)
        for (line, fields) in records.dropFirst() {
            guard fields.count == header.count else {
                throw LoadError(
                    path: path, line: line, message: "this row has \(fields.count) fields; the header has \(header.count)")
            }
            let row = Dictionary(uniqueKeysWithValues: zip(header, fields))
            try catalog.add(row, source: "\(path) row \(line)", line: line)
        }
        return catalog
    }

    public static func json(_ text: String, path: String) throws(LoadError) -> Catalog {
        let data = Data(text.utf8)
        var catalog = Catalog(path: path)
        if let byTitle = try? JSONDecoder().decode([String: [String: Scalar]].self, from: data) {
            for (title, fields) in byTitle.sorted(by: { $0.key < $1.key }) {
                var row = fields.mapValues(\.text)
                row["title_dir"] = row["title_dir"] ?? title
                try catalog.add(row, source: "\(path) entry \(title)", line: nil)
            }
        } else if let rows = try? JSONDecoder().decode([[String: Scalar]].self, from: data) {
            for (index, fields) in rows.enumerated() {
                try catalog.add(fields.mapValues(\.text), source: "\(path) entry \(index)", line: nil)
            }
        } else {
            throw LoadError(
                path: path, line: nil,
                message: "a JSON catalogue is an object of title entries, or an array of entries, each an object of "
                    + "strings or numbers")
        }
        return catalog
    }

    /// A JSON string, number or boolean, as the text a template would use.
    private struct Scalar: Decodable {
        var text: String

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let string = try? container.decode(String.self) {
                text = string
            } else if let integer = try? container.decode(Int64.self) {
                text = String(integer)
            } else if let number = try? container.decode(Double.self) {
                text = String(number)
            } else {
                text = String(try container.decode(Bool.self))
            }
        }
    }

    private init(path: String) { self.path = path }

    /// Whether `text` starts or ends with white space, which a value taken as written would carry into
    /// the URIs (`cid=%20title-42`).
    private static func hasSurroundingSpace(_ text: String) -> Bool {
        (text.first?.isWhitespace ?? false) || (text.last?.isWhitespace ?? false)
    }

    /// Adds the row of `fields`, from `line` of a CSV catalogue or, without one, the JSON entry `source`.
    private mutating func add(_ fields: [String: String], source: String, line: Int?) throws(LoadError) {
        // A JSON entry has no line: the message names it.
        let row = line == nil ? "the " + String(source.dropFirst(self.path.count + 1)) : "this row"
        if let (name, value) = fields.sorted(by: { $0.key < $1.key }).first(where: { Self.hasSurroundingSpace($0.value) }) {
            throw LoadError(
                path: self.path, line: line,
                message: "the \(name) of \(row) has spaces around its value (\(value.count) characters with them); remove them "
                    + "(a value is used as written; it is not quoted here, as it may be secret)")
        }
        var values = fields
        let path = values.removeValue(forKey: "path").flatMap { $0.isEmpty ? nil : Self.normalized($0) }
        let title = values.removeValue(forKey: "title_dir").flatMap { $0.isEmpty ? nil : Self.normalized($0) }
        let entry = Row(values: values, source: source)
        if let path {
            guard byPath[path] == nil else {
                throw LoadError(path: self.path, line: line, message: "\(row) is a second row for the path '\(path)'")
            }
            byPath[path] = entry
        } else if let title {
            guard byTitle[title] == nil else {
                throw LoadError(path: self.path, line: line, message: "\(row) is a second row for the title '\(title)'")
            }
            byTitle[title] = entry
            if title.contains("/") { hasPathRows = true }
        } else {
            throw LoadError(path: self.path, line: line, message: "\(row) names neither a path nor a title_dir")
        }
    }
}

/// RFC 4180 CSV, with the line each record starts on.
enum CSVReader {
    static func records(_ text: String, path: String) throws(Catalog.LoadError) -> [(Int, [String])] {
        var records: [(Int, [String])] = []
        var fields: [String] = []
        var field = ""
        var inQuotes = false
        var line = 1
        var recordLine = 1
        var afterQuote = false
        var characters = text.makeIterator()
        var pending: Character? = nil
        func next() -> Character? {
            if let character = pending {
                pending = nil
                return character
            }
            return characters.next()
        }
        while let character = next() {
            if inQuotes {
                if character == "\"" {
                    if let following = characters.next() {
                        if following == "\"" {
                            field.append("\"")
                        } else {
                            inQuotes = false
                            afterQuote = true
                            pending = following
                        }
                    } else {
                        inQuotes = false
                    }
                } else {
                    if character == "\n" || character == "\r\n" { line += 1 }
                    field.append(character)
                }
                continue
            }
            switch character {
            case "\"" where field.isEmpty && !afterQuote:
                inQuotes = true
            case ",":
                fields.append(field)
                field = ""
                afterQuote = false
            case "\n", "\r\n", "\r":
                fields.append(field)
                if !(fields.count == 1 && fields[0].isEmpty) { records.append((recordLine, fields)) }
                fields = []
                field = ""
                afterQuote = false
                line += 1
                recordLine = line
            default:
                if afterQuote {
                    throw Catalog.LoadError(path: path, line: line, message: "text after a closing quote")
                }
                field.append(character)
            }
        }
        if inQuotes { throw Catalog.LoadError(path: path, line: recordLine, message: "a quoted field is never closed") }
        if !field.isEmpty || !fields.isEmpty {
            fields.append(field)
            records.append((recordLine, fields))
        }
        // A byte order mark some spreadsheet programs write is not part of the first column's name.
        if var first = records.first, let name = first.1.first, name.hasPrefix("\u{FEFF}") {
            first.1[0] = String(name.dropFirst())
            records[0] = first
        }
        return records
    }
}
