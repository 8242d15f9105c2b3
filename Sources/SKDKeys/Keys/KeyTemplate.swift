import HLS
import SKDTemplate

/// A template with what skdpack writes beside the URI in a FairPlay key line: the fields `method`,
/// `keyformat`, `keyformatversions`, `iv` and `session_keys` of a template file.
///
/// Each field is checked when the file is loaded, as the attribute it becomes (an enumerated-string, a
/// quoted-string, a hexadecimal-sequence), so a template that could write a broken key line is refused with
/// its file, line and column before any playlist is read.
public struct KeyTemplate: Sendable {
    /// The URI template, its variables and hosts.
    public var definition: TemplateDefinition
    /// METHOD to write; `nil` when the file does not set it: inserted keys get `SAMPLE-AES`, rewritten
    /// keys keep theirs.
    public var method: String?
    public var keyFormat: String
    /// KEYFORMATVERSIONS to write; `nil` when not set: inserted keys get `"1"`, rewritten keys keep theirs.
    public var keyFormatVersions: String?
    /// An IV to write after URI (`0x` and 32 hex digits), rarely wanted with FairPlay.
    public var iv: String?
    /// Write `EXT-X-SESSION-KEY`s in master playlists for the FairPlay keys their media playlists use.
    public var sessionKeys: Bool

    /// The fields of a template file this type reads (``TemplateLibrary/fields``).
    public static let fields: Set<String> = ["method", "keyformat", "keyformatversions", "iv", "session_keys"]

    /// The METHODs a template may set: those of RFC 8216 4.3.2.4 (FairPlay itself uses SAMPLE-AES).
    static let methods = ["SAMPLE-AES", "AES-128", "SAMPLE-AES-CTR", "NONE"]

    /// A template whose key attributes are skdpack's defaults.
    public init(
        _ definition: TemplateDefinition, method: String? = nil, keyFormat: String = FairPlay.keyFormat,
        keyFormatVersions: String? = nil, iv: String? = nil, sessionKeys: Bool = false
    ) {
        self.definition = definition
        self.method = method
        self.keyFormat = keyFormat
        self.keyFormatVersions = keyFormatVersions
        self.iv = iv
        self.sessionKeys = sessionKeys
    }

    /// Reads the key fields of `definition`'s file, each checked as the attribute it becomes; throws every
    /// problem.
    public init(reading definition: TemplateDefinition) throws(TemplateFileError) {
        let (template, problems) = Self.read(definition, uriRead: true)
        if let error = TemplateFileError.combining(problems) { throw error }
        self = template
    }

    /// Reads the key fields of `definition`'s file as ``init(reading:)`` does, noting each problem and going
    /// on. `uriRead`: whether the file's uri was read; if not, the uri is not compared with the variables.
    static func read(_ definition: TemplateDefinition, uriRead: Bool) -> (KeyTemplate, [TemplateFileError]) {
        var template = KeyTemplate(Self.withBearerSecrets(definition))
        var problems: [TemplateFileError] = []
        let path = definition.path ?? definition.name
        func refuse(_ message: String, at mark: YAMLMark) {
            problems.append(TemplateFileError(path: path, line: mark.line, column: mark.column, message: message))
        }
        /// The field's text and node, checked as the attribute it becomes.
        func field(_ name: String, as attribute: String, _ type: (String) -> AttributeValue) -> (String, YAMLNode)? {
            guard let node = definition.fields[name] else { return nil }
            guard let value = node.string else {
                refuse("\(name) must be a string", at: node.mark)
                return nil
            }
            do {
                _ = try type(value).encoded(as: attribute)
            } catch {
                refuse("\(name): \(error)", at: node.mark)
                return nil
            }
            return (value, node)
        }
        if let (method, node) = field("method", as: "METHOD", AttributeValue.enumeratedString) {
            if Self.methods.contains(method) {
                template.method = method
            } else {
                refuse(
                    "method '\(method)' is not an HLS METHOD (\(Self.methods.joined(separator: ", "))); FairPlay uses SAMPLE-AES",
                    at: node.mark)
            }
        }
        if let (keyFormat, node) = field("keyformat", as: "KEYFORMAT", AttributeValue.quotedString) {
            if keyFormat.isEmpty {
                refuse("keyformat is empty; FairPlay's is \(FairPlay.keyFormat)", at: node.mark)
            } else {
                template.keyFormat = keyFormat
            }
        }
        if let (versions, node) = field("keyformatversions", as: "KEYFORMATVERSIONS", AttributeValue.quotedString) {
            let valid = versions.split(separator: "/", omittingEmptySubsequences: false)
                .allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } }
            if valid {
                template.keyFormatVersions = versions
            } else {
                refuse("keyformatversions must look like \"1\" or \"1/2\" (RFC 8216 4.3.2.4)", at: node.mark)
            }
        }
        if let (iv, node) = field("iv", as: "IV", AttributeValue.hexadecimalSequence) {
            if iv.utf8.count == 34 {
                template.iv = iv
            } else {
                refuse("iv must be 0x followed by 32 hex digits (a 128-bit IV)", at: node.mark)
            }
        }
        if uriRead { checkDeclarations(of: definition, refuse: refuse) }
        if let node = definition.fields["session_keys"] {
            if let value = node.bool { template.sessionKeys = value } else { refuse("session_keys must be true or false", at: node.mark) }
        }
        return (template, problems)
    }

    /// A file that declares its variables must declare every variable its URI uses (a built-in aside), and
    /// use every variable it requires: a typo in either (`{contnet_id}`) is found when the file is loaded,
    /// not key by key. A file without a `variables` section declares nothing and is not held to this.
    private static func checkDeclarations(of definition: TemplateDefinition, refuse: (String, YAMLMark) -> Void) {
        guard !definition.variables.isEmpty else { return }
        let used = definition.uri.variableNames
        let declared = definition.variables.keys.sorted()
        let uriMark = definition.marks["uri"] ?? YAMLMark(line: 1, column: 1)
        var undeclared: Set<String> = []
        for segment in definition.uri.segments {
            guard case .placeholder(let placeholder) = segment, definition.variables[placeholder.name] == nil,
                !VariableSources.builtInNames.contains(placeholder.name), !KeyTruth.variableNames.contains(placeholder.name),
                undeclared.insert(placeholder.name).inserted
            else { continue }
            // The column inside a quoted URI, counted from its opening quote.
            let mark = YAMLMark(line: uriMark.line, column: uriMark.column + placeholder.column)
            // A misspelt name is told with the one meant, as a misspelt --var is.
            let meant = NearestName.nearest(
                to: placeholder.name, in: declared + VariableSources.builtInNames + KeyTruth.variableNames)
            refuse(
                "uri: {\(placeholder.name)} is not declared under variables\(meant.map { " (did you mean {\($0)}?)" } ?? "") "
                    + "(declared: \(declared.joined(separator: ", ")); "
                    + "built-in: \(VariableSources.builtInNames.joined(separator: ", ")); from key truth: "
                    + "\(KeyTruth.variableNames.joined(separator: ", ")))",
                mark)
        }
        for name in declared where !used.contains(name) {
            // A secret the uri does not use names a match group to hide (an old URI's token).
            guard let spec = definition.variables[name], spec.required, spec.defaultValue == nil, !spec.secret else { continue }
            refuse(
                "\(name) is declared (and required) but the uri never uses it; remove it, or use {\(name)} in the uri "
                    + "(or mark it secret: true, for a match group to hide)",
                definition.marks["variables." + name] ?? uriMark)
        }
    }

    /// Every problem of the template file at `path`, both the template language's and the key fields', in
    /// the file's order, as `skdpack templates check` lists them; throws only when the file cannot be read.
    public static func problems(
        inFileAt path: String
    ) throws(TemplateLibrary.LookupError) -> (template: KeyTemplate?, problems: [TemplateFileError]) {
        let text: String
        do {
            text = try TextFile.read(path)
        } catch {
            throw .unreadable(path, error.reason)
        }
        let reading = TemplateFile.read(text, path: path, fields: fields)
        guard let definition = reading.definition else { return (nil, reading.problems) }
        let (template, problems) = read(definition, uriRead: reading.uriRead)
        let all = TemplateFileError.combining(reading.problems + problems)?.all ?? []
        return (all.isEmpty ? template : nil, all)
    }

    /// The template file at `path`, every field checked.
    public static func load(path: String) throws(TemplateLibrary.LookupError) -> KeyTemplate {
        let (template, problems) = try problems(inFileAt: path)
        if let template { return template }
        throw .file(TemplateFileError.combining(problems)!)
    }

    /// The template `argument` names (a shipped name, a file, or an `skd:` URI template), its key fields
    /// checked.
    public static func resolve(_ argument: String, in library: TemplateLibrary) throws(TemplateLibrary.LookupError) -> KeyTemplate {
        // A file is read whole, every problem said; a shipped template or an inline URI has one reading.
        if let path = library.filePath(for: argument) { return try load(path: path) }
        var library = library
        library.fields.formUnion(fields)
        return try reading(try library.resolve(argument))
    }

    /// `definition` with the variables the bearer-token rule makes secret by where they stand: a placeholder
    /// that is the whole value of a query parameter the rule takes (`?auth_token={t}`, ``BearerTokens``) is
    /// secret whatever the file or the inline URI says. So a rendered URI's tokens are known from its
    /// template and its values, and the URI need not be searched at every key.
    static func withBearerSecrets(_ definition: TemplateDefinition) -> TemplateDefinition {
        var definition = definition
        var text = ""
        for segment in definition.uri.segments {
            switch segment {
            case .literal(let literal):
                text += literal
            case .placeholder(let placeholder):
                defer { text += "{}" }
                guard text.hasSuffix("="), let query = text.lastIndex(of: "?") else { continue }
                let parameter = text[text.index(after: query)...].split(whereSeparator: { $0 == "&" || $0 == ";" }).last ?? ""
                let name = Array(parameter.dropLast().utf8)
                let isSecret = name.withUnsafeBytes { BearerTokens.isSecretName($0) }
                guard isSecret, definition.variables[placeholder.name]?.secret != true else { continue }
                var spec = definition.variables[placeholder.name] ?? (try? VariableSpec())
                spec?.secret = true
                definition.variables[placeholder.name] = spec
            }
        }
        return definition
    }

    /// The secrets written out in a template's own text (a token in an inline `--template` or a file's `uri:`),
    /// by the bearer-token rule; its placeholders stand apart (a `{token}` is no token). A rendered URI is not
    /// searched, so they are known here.
    public static func literalSecrets(of template: Template) -> [Secret] {
        // (Concatenated by hand: `joined()` here is an unspecialised generic call whose runtime type look-ups
        // cost a small run 200K instructions.)
        var text = ""
        for segment in template.segments {
            if case .literal(let literal) = segment { text += literal } else { text += "\u{0}" }
        }
        // (The bearer rule takes the ExpressPlay form's token too: its name ends in "token". The shipped forms'
        // own matchers are not asked here: one compiles a Regex, a millisecond of every run.)
        return BearerTokens.secrets(in: text)
    }

    /// ``init(reading:)``, its error as the library's.
    private static func reading(_ definition: TemplateDefinition) throws(TemplateLibrary.LookupError) -> KeyTemplate {
        do {
            return try KeyTemplate(reading: definition)
        } catch {
            throw .file(error)
        }
    }
}
