/// A named template: the key URI and what goes with it in an `EXT-X-KEY` tag, as a template file says.
///
/// ```yaml
/// name: entitlement
/// description: The license server's URL and the content id, so players need no hard-coded server.
/// uri: "skd://{entitlement_url|strip_scheme}?cid={content_id|url}"
/// variables:
///   entitlement_url: { pattern: "https://[^ ]+", description: "the license server" }
///   content_id: { pattern: "[A-Za-z0-9._-]{1,128}" }
/// license:
///   allow_hosts: [lic.example.com]
/// ```
public struct TemplateDefinition: Sendable {
    public static let fairPlayKeyFormat = "com.apple.streamingkeydelivery"

    public var name: String
    public var description: String?
    public var uri: Template
    /// METHOD to write. `nil` when the file does not set it: inserted keys get `SAMPLE-AES`, rewritten
    /// keys keep theirs.
    public var method: String?
    public var keyFormat: String
    /// KEYFORMATVERSIONS to write; `nil` when not set: inserted keys get `"1"`, rewritten keys keep theirs.
    public var keyFormatVersions: String?
    /// An IV to write after URI (`0x` and 32 hex digits), rarely wanted with FairPlay.
    public var iv: String?
    /// Write `EXT-X-SESSION-KEY`s in master playlists for the FairPlay keys their media playlists use.
    public var sessionKeys: Bool
    public var variables: [String: VariableSpec]
    /// Hosts the derived https license URL may point at; empty allows any.
    public var allowHosts: [String]
    /// The file the template was read from, `nil` for an inline template.
    public var path: String?

    public init(
        name: String, description: String? = nil, uri: Template, method: String? = nil,
        keyFormat: String = TemplateDefinition.fairPlayKeyFormat, keyFormatVersions: String? = nil,
        iv: String? = nil, sessionKeys: Bool = false, variables: [String: VariableSpec] = [:],
        allowHosts: [String] = [], path: String? = nil
    ) {
        self.name = name
        self.description = description
        self.uri = uri
        self.method = method
        self.keyFormat = keyFormat
        self.keyFormatVersions = keyFormatVersions
        self.iv = iv
        self.sessionKeys = sessionKeys
        self.variables = variables
        self.allowHosts = allowHosts
        self.path = path
    }

    /// A template given as a URI on the command line (`--template 'skd://{content_id}'`).
    public init(inline source: String) throws(TemplateSyntaxError) {
        self.init(name: source, uri: try Template(source))
    }

    public var renderer: TemplateRenderer { TemplateRenderer(template: uri, specs: variables) }

    /// The names of the variables whose values are secret.
    public var secretNames: Set<String> { Set(variables.filter { $0.value.secret }.map(\.key)) }
}
