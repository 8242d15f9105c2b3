/// A template file that cannot be used: where (1-based line and column in the file) and why.
public struct TemplateFileError: Error, Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var line: Int
    public var column: Int
    public var message: String

    public var description: String { "\(path):\(line):\(column): error: \(message)" }
}

/// Reads template files (YAML, or JSON, which YAML reads too) into ``TemplateDefinition``s, and says
/// exactly where a file is wrong: unknown keys (a typo would otherwise be ignored), wrong types, a URI
/// that does not parse, a pattern that is not a regular expression.
public enum TemplateFile {
    static let keys: Set<String> = [
        "name", "description", "uri", "method", "keyformat", "keyformatversions", "iv", "session_keys",
        "variables", "license",
    ]
    static let variableKeys: Set<String> = ["pattern", "required", "default", "secret", "description"]

    /// Parses the text of a template file; `path` is used in errors and recorded in the definition.
    public static func parse(_ text: String, path: String) throws(TemplateFileError) -> TemplateDefinition {
        let root: YAMLNode
        do throws(YAMLError) {
            guard let node = try YAMLReader.read(text) else {
                throw YAMLError(message: "the file is empty", mark: YAMLMark(line: 1, column: 1))
            }
            root = node
        } catch {
            let message = error.message == "the file is empty" ? error.message : "not YAML: \(error.message)"
            throw TemplateFileError(path: path, line: error.mark.line, column: error.mark.column, message: message)
        }
        var reader = Reader(path: path)
        return try reader.definition(from: root)
    }

    /// Walks the YAML tree, checking each field where it stands.
    private struct Reader {
        let path: String

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
            for (key, keyNode, value) in try mapping(root, "a template file", allowed: TemplateFile.keys) {
                switch key {
                case "name": name = try string(value, "name")
                case "description": definition.description = try string(value, "description")
                case "uri": uriText = (try string(value, "uri"), value)
                case "method":
                    let method = try string(value, "method")
                    guard ["SAMPLE-AES", "AES-128", "SAMPLE-AES-CTR", "NONE"].contains(method) else {
                        throw error("method '\(method)' is not an HLS METHOD; FairPlay uses SAMPLE-AES", at: value)
                    }
                    definition.method = method
                case "keyformat": definition.keyFormat = try string(value, "keyformat")
                case "keyformatversions":
                    let versions = try string(value, "keyformatversions")
                    let valid = !versions.isEmpty && versions.split(separator: "/", omittingEmptySubsequences: false)
                        .allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
                    guard valid else { throw error("keyformatversions must look like \"1\" or \"1/2\"", at: value) }
                    definition.keyFormatVersions = versions
                case "iv":
                    let iv = try string(value, "iv")
                    let digits = iv.dropFirst(2)
                    guard iv.lowercased().hasPrefix("0x"), digits.count == 32, digits.allSatisfy(\.isHexDigit) else {
                        throw error("iv must be 0x followed by 32 hex digits", at: value)
                    }
                    definition.iv = iv
                case "session_keys": definition.sessionKeys = try bool(value, "session_keys")
                case "variables": definition.variables = try variables(value)
                case "license":
                    for (licenseKey, _, licenseValue) in try mapping(value, "license", allowed: ["allow_hosts"]) {
                        guard licenseKey == "allow_hosts", case .sequence(let hosts, _) = licenseValue else {
                            throw error("license.allow_hosts must be a list of host names", at: licenseValue)
                        }
                        definition.allowHosts = try hosts.map { (host) throws(TemplateFileError) in
                            try string(host, "a host in allow_hosts")
                        }
                    }
                default:
                    throw error("unknown key '\(key)'", at: keyNode)
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
                    case "default": defaultValue = try string(fieldValue, "default")
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
