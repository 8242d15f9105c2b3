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

    /// Reads the key fields of `definition`'s file, each checked as the attribute it becomes.
    public init(reading definition: TemplateDefinition) throws(TemplateFileError) {
        self.init(definition)
        let path = definition.path ?? definition.name
        func refuse(_ message: String, at node: YAMLNode) -> TemplateFileError {
            TemplateFileError(path: path, line: node.mark.line, column: node.mark.column, message: message)
        }
        /// The field's text and node, checked as the attribute it becomes.
        func field(
            _ name: String, as attribute: String, _ type: (String) -> AttributeValue
        ) throws(TemplateFileError) -> (String, YAMLNode)? {
            guard let node = definition.fields[name] else { return nil }
            guard let value = node.string else { throw refuse("\(name) must be a string", at: node) }
            do {
                _ = try type(value).encoded(as: attribute)
            } catch {
                throw refuse("\(name): \(error)", at: node)
            }
            return (value, node)
        }
        if let (method, node) = try field("method", as: "METHOD", AttributeValue.enumeratedString) {
            guard Self.methods.contains(method) else {
                throw refuse(
                    "method '\(method)' is not an HLS METHOD (\(Self.methods.joined(separator: ", "))); FairPlay uses SAMPLE-AES", at: node)
            }
            self.method = method
        }
        if let (keyFormat, node) = try field("keyformat", as: "KEYFORMAT", AttributeValue.quotedString) {
            guard !keyFormat.isEmpty else { throw refuse("keyformat is empty; FairPlay's is \(FairPlay.keyFormat)", at: node) }
            self.keyFormat = keyFormat
        }
        if let (versions, node) = try field("keyformatversions", as: "KEYFORMATVERSIONS", AttributeValue.quotedString) {
            let valid = versions.split(separator: "/", omittingEmptySubsequences: false)
                .allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } }
            guard valid else { throw refuse("keyformatversions must look like \"1\" or \"1/2\" (RFC 8216 4.3.2.4)", at: node) }
            self.keyFormatVersions = versions
        }
        if let (iv, node) = try field("iv", as: "IV", AttributeValue.hexadecimalSequence) {
            guard iv.utf8.count == 34 else { throw refuse("iv must be 0x followed by 32 hex digits (a 128-bit IV)", at: node) }
            self.iv = iv
        }
        try Self.checkDeclarations(
            of: definition,
            refuse: { message, mark in
                TemplateFileError(path: path, line: mark.line, column: mark.column, message: message)
            })
        if let node = definition.fields["session_keys"] {
            guard let value = node.bool else { throw refuse("session_keys must be true or false", at: node) }
            self.sessionKeys = value
        }
    }

    /// A file that declares its variables must declare every variable its URI uses (a built-in aside), and
    /// use every variable it requires: a typo in either (`{contnet_id}`) is found when the file is loaded,
    /// not key by key. A file without a `variables` section declares nothing and is not held to this.
    private static func checkDeclarations(
        of definition: TemplateDefinition, refuse: (String, YAMLMark) -> TemplateFileError
    ) throws(TemplateFileError) {
        guard !definition.variables.isEmpty else { return }
        let used = definition.uri.variableNames
        let declared = definition.variables.keys.sorted()
        let uriMark = definition.marks["uri"] ?? YAMLMark(line: 1, column: 1)
        for segment in definition.uri.segments {
            guard case .placeholder(let placeholder) = segment, definition.variables[placeholder.name] == nil,
                !VariableSources.builtInNames.contains(placeholder.name), !KeyTruth.variableNames.contains(placeholder.name)
            else { continue }
            // The column inside a quoted URI, counted from its opening quote.
            let mark = YAMLMark(line: uriMark.line, column: uriMark.column + placeholder.column)
            throw refuse(
                "uri: {\(placeholder.name)} is not declared under variables (declared: \(declared.joined(separator: ", ")); "
                    + "built-in: \(VariableSources.builtInNames.joined(separator: ", ")); from key truth: "
                    + "\(KeyTruth.variableNames.joined(separator: ", ")))",
                mark)
        }
        for name in declared where !used.contains(name) {
            // A secret the uri does not use names a match group to hide (an old URI's token).
            guard let spec = definition.variables[name], spec.required, spec.defaultValue == nil, !spec.secret else { continue }
            throw refuse(
                "\(name) is declared (and required) but the uri never uses it; remove it, or use {\(name)} in the uri "
                    + "(or mark it secret: true, for a match group to hide)",
                definition.marks["variables." + name] ?? uriMark)
        }
    }

    /// The template file at `path`, every field checked.
    public static func load(path: String) throws(TemplateLibrary.LookupError) -> KeyTemplate {
        try reading(try TemplateLibrary(fields: fields).load(path: path))
    }

    /// The template `argument` names (a shipped name, a file, or an `skd:` URI template), its key fields
    /// checked.
    public static func resolve(_ argument: String, in library: TemplateLibrary) throws(TemplateLibrary.LookupError) -> KeyTemplate {
        var library = library
        library.fields.formUnion(fields)
        return try reading(try library.resolve(argument))
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
