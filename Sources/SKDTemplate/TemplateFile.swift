/// A template file that cannot be used: where (1-based line and column in the file) and why.
public struct TemplateFileError: Error, Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var line: Int
    public var column: Int
    public var message: String

    public init(path: String, line: Int, column: Int, message: String) {
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "\(path):\(line):\(column): error: \(message)" }
}

/// Reads template files (YAML, or JSON, which YAML reads too) into ``TemplateDefinition``s, and says
/// exactly where a file is wrong: unknown keys (a typo would otherwise be ignored), wrong types, a URI
/// that does not parse, a pattern that is not a regular expression.
public enum TemplateFile {
    /// The template language's own fields.
    static let keys: Set<String> = ["name", "description", "uri", "variables", "license"]
    static let variableKeys: Set<String> = ["pattern", "required", "default", "secret", "description"]

    /// Parses the text of a template file; `path` is used in errors and recorded in the definition.
    /// `fields` names the fields a program accepts besides the template language's own: they are kept,
    /// unchecked, in ``TemplateDefinition/fields``; any other field is an error.
    public static func parse(_ text: String, path: String, fields: Set<String> = []) throws(TemplateFileError) -> TemplateDefinition {
        let node: YAMLNode?
        do {
            node = try YAMLReader.read(text)
        } catch {
            throw TemplateFileError(path: path, line: error.mark.line, column: error.mark.column, message: "not YAML: \(error.message)")
        }
        guard let root = node else { throw TemplateFileError(path: path, line: 1, column: 1, message: "the file is empty") }
        var reader = Reader(path: path, allowed: keys.union(fields))
        return try reader.definition(from: root)
    }

    /// Walks the YAML tree, checking each field where it stands.
    private struct Reader {
        let path: String
        let allowed: Set<String>

        func error(_ message: String, at node: YAMLNode) -> TemplateFileError {
            TemplateFileError(path: path, line: node.mark.line, column: node.mark.column, message: message)
        }

        func mapping(_ node: YAMLNode, _ what: String, allowed: Set<String>) throws(TemplateFileError) -> [(String, YAMLNode, YAMLNode)] {
            guard case .mapping(let mapping, _) = node else { throw error("\(what) must be a mapping of keys to values", at: node) }
            var entries: [(String, YAMLNode, YAMLNode)] = []
            for (key, value) in mapping.map({ ($0.key, $0.value) }) {
                guard let name = key.string else { throw error("keys of \(what) must be strings", at: key) }
                guard allowed.contains(name) else {
                    throw error("unknown key '\(name)' in \(what) (known: \(allowed.sorted().joined(separator: ", ")))", at: key)
                }
                entries.append((name, key, value))
            }
            return entries
        }

        func string(_ node: YAMLNode, _ what: String) throws(TemplateFileError) -> String {
            guard let text = node.string else { throw error("\(what) must be a string", at: node) }
            return text
        }

        func bool(_ node: YAMLNode, _ what: String) throws(TemplateFileError) -> Bool {
            guard let value = node.bool else { throw error("\(what) must be true or false", at: node) }
            return value
        }

        mutating func definition(from root: YAMLNode) throws(TemplateFileError) -> TemplateDefinition {
            var name: String?
            var uriText: (String, YAMLNode)?
            var definition = TemplateDefinition(name: "", uri: try! Template("skd://"), path: path)
            for (key, keyNode, value) in try mapping(root, "a template file", allowed: allowed) {
                switch key {
                case "name":
                    let text = try string(value, "name")
                    // A name is shown in messages and reports, and names a file in templates/.
                    guard TemplateParser.isTemplateName(text) else {
                        throw error(
                            "name '\(text.unicodeScalars.map { $0.escaped(asASCII: true) }.joined())' is not a template name (letters, digits, '.', '_' and '-')",
                            at: value)
                    }
                    name = text
                case "description":
                    let text = try string(value, "description")
                    if let scalar = text.unicodeScalars.first(where: {
                        $0.properties.generalCategory == .control && $0 != "\n" && $0 != "\t"
                    }) {
                        throw error("description holds the control character \(scalar.escaped(asASCII: true))", at: value)
                    }
                    definition.description = text
                case "uri":
                    uriText = (try string(value, "uri"), value)
                    definition.marks["uri"] = value.mark
                case "variables":
                    definition.variables = try variables(value)
                    definition.marks["variables"] = keyNode.mark
                    if case .mapping(let entries, _) = value {
                        for entry in entries { if let name = entry.key.string { definition.marks["variables." + name] = entry.key.mark } }
                    }
                case "license":
                    for (licenseKey, _, licenseValue) in try mapping(value, "license", allowed: ["allow_hosts"]) {
                        guard licenseKey == "allow_hosts", case .sequence(let hosts, _) = licenseValue else {
                            throw error("license.allow_hosts must be a list of host names", at: licenseValue)
                        }
                        definition.allowHosts = try hosts.map { (host) throws(TemplateFileError) in
                            let text = try string(host, "a host in allow_hosts")
                            guard LicenseURL.isHostPattern(text) else {
                                throw error(
                                    "'\(text)' in allow_hosts is not a host name (lic.example.com, or *.example.com for its subdomains)",
                                    at: host)
                            }
                            return text
                        }
                    }
                default:
                    guard allowed.contains(key) else { throw error("unknown key '\(key)'", at: keyNode) }
                    definition.fields[key] = value
                }
            }
            guard let name, !name.isEmpty else { throw error("a template file needs a name", at: root) }
            guard let (text, node) = uriText else { throw error("a template file needs a uri", at: root) }
            definition.name = name
            do {
                definition.uri = try Template(text)
            } catch {
                // The column inside the URI, placed in the file: exact for plain and quoted scalars on one line.
                var offset = 1
                if case .scalar(_, plain: true, _) = node { offset = 0 }
                throw TemplateFileError(
                    path: path, line: node.mark.line, column: node.mark.column + offset + error.column - 1,
                    message: "uri: \(error.message)")
            }
            return definition
        }

        func variables(_ node: YAMLNode) throws(TemplateFileError) -> [String: VariableSpec] {
            guard case .mapping(let entries, _) = node else { throw error("variables must be a mapping of names to settings", at: node) }
            var specs: [String: VariableSpec] = [:]
            for (key, value) in entries.map({ ($0.key, $0.value) }) {
                guard let name = key.string, TemplateParser.isVariableName(name) else {
                    throw error("'\(key.string ?? "?")' is not a variable name (letters, digits and _)", at: key)
                }
                var pattern: String?
                var required = true
                var defaultValue: String?
                var secret = false
                var description: String?
                for (field, _, fieldValue) in try mapping(value, "variable \(name)", allowed: TemplateFile.variableKeys) {
                    switch field {
                    case "pattern": pattern = try string(fieldValue, "pattern")
                    case "required": required = try bool(fieldValue, "required")
                    case "default":
                        let text = try string(fieldValue, "default")
                        if let scalar = TemplateValue.forbiddenScalar(in: text) {
                            throw self.error(
                                "the default of \(name) holds \(scalar.escaped(asASCII: true)), which no key URI may carry", at: fieldValue)
                        }
                        defaultValue = text
                    case "secret": secret = try bool(fieldValue, "secret")
                    default: description = try string(fieldValue, "description")
                    }
                }
                do {
                    specs[name] = try VariableSpec(
                        pattern: pattern, required: required, defaultValue: defaultValue, secret: secret,
                        description: description)
                } catch {
                    throw self.error("the pattern of \(name) is not a regular expression: \(error)", at: value)
                }
                if let defaultValue, let pattern = specs[name]?.pattern, !pattern.matches(defaultValue) {
                    throw self.error("the default of \(name) does not match its pattern \(pattern.text)", at: value)
                }
            }
            return specs
        }
    }
}
