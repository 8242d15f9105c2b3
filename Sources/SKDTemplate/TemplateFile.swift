/// A template file that cannot be used: where (1-based line and column in the file) and why; and the
/// file's further problems, for a file is checked whole and each problem said, as a compiler does.
public struct TemplateFileError: Error, Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var line: Int
    public var column: Int
    public var message: String
    /// The file's other problems, after this one in the file's order.
    public var further: [TemplateFileError] = []

    public init(path: String, line: Int, column: Int, message: String) {
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    /// Every problem, this one first, each without further ones.
    public var all: [TemplateFileError] {
        var first = self
        first.further = []
        return [first] + further
    }

    /// One line per problem: `path:line:column: error: message`.
    public var description: String {
        all.map { "\($0.path):\($0.line):\($0.column): error: \($0.message)" }.joined(separator: "\n")
    }

    /// `problems` as one error, in the file's order; `nil` when there are none.
    public static func combining(_ problems: [TemplateFileError]) -> TemplateFileError? {
        let ordered = problems.flatMap(\.all).sorted { ($0.line, $0.column) < ($1.line, $1.column) }
        guard var first = ordered.first else { return nil }
        first.further = Array(ordered.dropFirst())
        return first
    }
}

/// Reads template files (YAML, or JSON, which YAML reads too) into ``TemplateDefinition``s, and says
/// exactly where a file is wrong: unknown keys (a typo would otherwise be ignored), wrong types, a URI
/// that does not parse, a pattern that is not a regular expression. Every problem of a file is found in one
/// reading: a field that is wrong is reported and the reading goes on with the next.
public enum TemplateFile {
    /// The template language's own fields.
    static let keys: Set<String> = ["name", "description", "uri", "variables", "license"]
    static let variableKeys: Set<String> = ["pattern", "required", "default", "secret", "description"]

    /// What a reading found: the definition, as far as it could be read, and every problem.
    public struct Reading: Sendable {
        /// `nil` when the file is no mapping of fields at all (not YAML, empty, a list).
        public var definition: TemplateDefinition?
        /// Whether the uri was read: without it, ``definition`` holds `skd://` in its place, and nothing
        /// that compares the uri with the variables can be judged.
        public var uriRead: Bool
        public var problems: [TemplateFileError]
    }

    /// Parses the text of a template file; `path` is used in errors and recorded in the definition.
    /// `fields` names the fields a program accepts besides the template language's own: they are kept,
    /// unchecked, in ``TemplateDefinition/fields``; any other field is an error. Throws every problem.
    public static func parse(_ text: String, path: String, fields: Set<String> = []) throws(TemplateFileError) -> TemplateDefinition {
        let reading = read(text, path: path, fields: fields)
        if let error = TemplateFileError.combining(reading.problems) { throw error }
        return reading.definition!
    }

    /// Reads the text of a template file as ``parse(_:path:fields:)`` does, keeping what it can of a file
    /// with problems.
    public static func read(_ text: String, path: String, fields: Set<String> = []) -> Reading {
        let node: YAMLNode?
        do {
            node = try YAMLReader.read(text)
        } catch {
            let problem = TemplateFileError(
                path: path, line: error.mark.line, column: error.mark.column, message: "not YAML: \(error.message)")
            return Reading(definition: nil, uriRead: false, problems: [problem])
        }
        guard let root = node else {
            return Reading(
                definition: nil, uriRead: false, problems: [TemplateFileError(path: path, line: 1, column: 1, message: "the file is empty")]
            )
        }
        var reader = Reader(path: path, allowed: keys.union(fields))
        let definition = reader.definition(from: root)
        return Reading(definition: definition, uriRead: reader.uriRead, problems: reader.problems)
    }

    /// Walks the YAML tree, checking each field where it stands and noting each problem.
    private struct Reader {
        let path: String
        let allowed: Set<String>
        var problems: [TemplateFileError] = []
        var uriRead = false

        func error(_ message: String, at node: YAMLNode) -> TemplateFileError {
            TemplateFileError(path: path, line: node.mark.line, column: node.mark.column, message: message)
        }

        /// The entries of a mapping whose keys are strings among `allowed`; each other key is a problem.
        mutating func mapping(_ node: YAMLNode, _ what: String, allowed: Set<String>) -> [(String, YAMLNode, YAMLNode)]? {
            guard case .mapping(let mapping, _) = node else {
                problems.append(error("\(what) must be a mapping of keys to values", at: node))
                return nil
            }
            var entries: [(String, YAMLNode, YAMLNode)] = []
            for (key, value) in mapping.map({ ($0.key, $0.value) }) {
                guard let name = key.string else {
                    problems.append(error("keys of \(what) must be strings", at: key))
                    continue
                }
                guard allowed.contains(name) else {
                    problems.append(error("unknown key '\(name)' in \(what) (known: \(allowed.sorted().joined(separator: ", ")))", at: key))
                    continue
                }
                entries.append((name, key, value))
            }
            return entries
        }

        mutating func string(_ node: YAMLNode, _ what: String) -> String? {
            guard let text = node.string else {
                problems.append(error("\(what) must be a string", at: node))
                return nil
            }
            return text
        }

        mutating func bool(_ node: YAMLNode, _ what: String) -> Bool? {
            guard let value = node.bool else {
                problems.append(error("\(what) must be true or false", at: node))
                return nil
            }
            return value
        }

        mutating func definition(from root: YAMLNode) -> TemplateDefinition? {
            var name: String?
            var uriText: (String, YAMLNode)?
            var definition = TemplateDefinition(name: "", uri: try! Template("skd://"), path: path)
            guard let entries = mapping(root, "a template file", allowed: allowed) else { return nil }
            for (key, keyNode, value) in entries {
                switch key {
                case "name":
                    guard let text = string(value, "name") else { continue }
                    // A name is shown in messages and reports, and names a file in templates/.
                    guard TemplateParser.isTemplateName(text) else {
                        problems.append(
                            error(
                                "name '\(text.unicodeScalars.map { $0.escaped(asASCII: true) }.joined())' is not a template name (letters, digits, '.', '_' and '-')",
                                at: value))
                        name = ""
                        continue
                    }
                    name = text
                case "description":
                    guard let text = string(value, "description") else { continue }
                    // The control characters (general category Cc) are exactly U+0000–U+001F and U+007F–U+009F:
                    // compared as numbers, not looked up in the Unicode tables scalar by scalar.
                    if let scalar = text.unicodeScalars.first(where: {
                        ($0.value < 0x20 || (0x7F...0x9F).contains($0.value)) && $0 != "\n" && $0 != "\t"
                    }) {
                        problems.append(error("description holds the control character \(scalar.escaped(asASCII: true))", at: value))
                    }
                    definition.description = text
                case "uri":
                    guard let text = string(value, "uri") else { continue }
                    uriText = (text, value)
                    definition.marks["uri"] = value.mark
                case "variables":
                    definition.variables = variables(value)
                    definition.marks["variables"] = keyNode.mark
                    if case .mapping(let entries, _) = value {
                        for entry in entries { if let name = entry.key.string { definition.marks["variables." + name] = entry.key.mark } }
                    }
                case "license":
                    for (_, _, licenseValue) in mapping(value, "license", allowed: ["allow_hosts"]) ?? [] {
                        guard case .sequence(let hosts, _) = licenseValue else {
                            problems.append(error("license.allow_hosts must be a list of host names", at: licenseValue))
                            continue
                        }
                        for host in hosts {
                            guard let text = string(host, "a host in allow_hosts") else { continue }
                            guard LicenseURL.isHostPattern(text) else {
                                problems.append(
                                    error(
                                        "'\(text)' in allow_hosts is not a host name (lic.example.com, or *.example.com for its subdomains)",
                                        at: host))
                                continue
                            }
                            definition.allowHosts.append(text)
                        }
                    }
                default:
                    definition.fields[key] = value
                }
            }
            if name == nil { problems.append(error("a template file needs a name", at: root)) }
            definition.name = name ?? ""
            guard let (text, node) = uriText else {
                // A uri that is there but no string is reported already.
                if !entries.contains(where: { $0.0 == "uri" }) { problems.append(error("a template file needs a uri", at: root)) }
                return definition
            }
            do {
                definition.uri = try Template(text)
                uriRead = true
            } catch {
                // The column inside the URI, placed in the file: exact for plain and quoted scalars on one line.
                var offset = 1
                if case .scalar(_, plain: true, _) = node { offset = 0 }
                problems.append(
                    TemplateFileError(
                        path: path, line: node.mark.line, column: node.mark.column + offset + error.column - 1,
                        message: "uri: \(error.message)"))
            }
            return definition
        }

        mutating func variables(_ node: YAMLNode) -> [String: VariableSpec] {
            guard case .mapping(let entries, _) = node else {
                problems.append(error("variables must be a mapping of names to settings", at: node))
                return [:]
            }
            var specs: [String: VariableSpec] = [:]
            for (key, value) in entries.map({ ($0.key, $0.value) }) {
                guard let name = key.string, TemplateParser.isVariableName(name) else {
                    problems.append(error("'\(key.string ?? "?")' is not a variable name (letters, digits and _)", at: key))
                    continue
                }
                var pattern: String?
                var required = true
                var defaultValue: String?
                var secret = false
                var description: String?
                for (field, _, fieldValue) in mapping(value, "variable \(name)", allowed: TemplateFile.variableKeys) ?? [] {
                    switch field {
                    case "pattern": pattern = string(fieldValue, "pattern")
                    case "required": required = bool(fieldValue, "required") ?? required
                    case "default":
                        guard let text = string(fieldValue, "default") else { continue }
                        if let scalar = TemplateValue.forbiddenScalar(in: text) {
                            problems.append(
                                error(
                                    "the default of \(name) holds \(scalar.escaped(asASCII: true)), which no key URI may carry",
                                    at: fieldValue))
                            continue
                        }
                        defaultValue = text
                    case "secret": secret = bool(fieldValue, "secret") ?? secret
                    default: description = string(fieldValue, "description")
                    }
                }
                do {
                    specs[name] = try VariableSpec(
                        pattern: pattern, required: required, defaultValue: defaultValue, secret: secret,
                        description: description)
                } catch {
                    problems.append(self.error("the pattern of \(name) is not a regular expression: \(error)", at: value))
                    // Declared all the same: its uses are not also undeclared.
                    specs[name] = try? VariableSpec(
                        pattern: nil, required: required, defaultValue: defaultValue, secret: secret, description: description)
                    continue
                }
                if let defaultValue, let pattern = specs[name]?.pattern, !pattern.matches(defaultValue) {
                    problems.append(self.error("the default of \(name) does not match its pattern \(pattern.text)", at: value))
                }
            }
            return specs
        }
    }
}
