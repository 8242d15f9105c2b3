/// A named template: the key URI, its variables and the hosts its license URL may point at, as a template
/// file says. Fields of the file that are not the template language's own (a program's settings for what it
/// writes with the URI) are kept in ``fields`` for that program to read and check.
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
    public var name: String
    public var description: String?
    public var uri: Template
    public var variables: [String: VariableSpec]
    /// Hosts the derived https license URL may point at; empty allows any.
    public var allowHosts: [String]
    /// The file the template was read from, `nil` for an inline template.
    public var path: String?
    /// The fields of the file that its reader was told to accept besides the template language's own
    /// (``TemplateFile/parse(_:path:fields:)``), as written and where: checking them is the reader's job.
    public var fields: [String: YAMLNode]
    /// Where things stand in the file, for messages about them: `uri` (its value), `variables` and
    /// `variables.NAME` (each variable's settings).
    public var marks: [String: YAMLMark] = [:]

    public init(
        name: String, description: String? = nil, uri: Template, variables: [String: VariableSpec] = [:],
        allowHosts: [String] = [], path: String? = nil, fields: [String: YAMLNode] = [:]
    ) {
        self.name = name
        self.description = description
        self.uri = uri
        self.variables = variables
        self.allowHosts = allowHosts
        self.path = path
        self.fields = fields
    }

    /// A template given as a URI on the command line (`--template 'skd://{content_id}'`).
    public init(inline source: String) throws(TemplateSyntaxError) {
        self.init(name: source, uri: try Template(source))
    }

    public var renderer: TemplateRenderer { TemplateRenderer(template: uri, specs: variables) }

    /// The names of the variables whose values are secret.
    public var secretNames: Set<String> { Set(variables.filter { $0.value.secret }.map(\.key)) }
}
