/// A key-URI template such as `skd://{entitlement_url|strip_scheme}?cid={content_id|url}`.
///
/// Placeholders are `{name}` (the form in Apple's and Adobe's documents) or `<name>` (the same meaning),
/// each with any number of filters: `{name|url|lower}`. `{{` and `}}` are literal braces. Everything
/// else is literal text, written as it is.
public struct Template: Hashable, Sendable, CustomStringConvertible {
    /// One piece of a template.
    public enum Segment: Hashable, Sendable {
        case literal(String)
        case placeholder(Placeholder)
    }

    /// A `{name|filter…}` in a template, with its 1-based column in the template text.
    public struct Placeholder: Hashable, Sendable {
        public var name: String
        public var filters: [TemplateFilter]
        public var column: Int

        public init(name: String, filters: [TemplateFilter], column: Int) {
            self.name = name
            self.filters = filters
            self.column = column
        }
    }

    /// The text the template was parsed from.
    public let source: String
    public let segments: [Segment]
    /// Whether every URI it renders starts `skd:` by its own literal text: then, as literals are checked
    /// here and values are percent-encoded, a rendered URI needs no checking of its own.
    public let startsWithKeyScheme: Bool

    /// The variable whose value comes right after `skd://` (or `skd:`), as in `skd://{server}`: the one
    /// value that can put a second scheme into the URI (`skd://https://…`), so rendering checks it.
    public let variableAfterScheme: String?

    /// Parses `source`; throws a ``TemplateSyntaxError`` that says where and what is wrong.
    public init(_ source: String) throws(TemplateSyntaxError) {
        self.source = source
        self.segments = try TemplateParser.parse(source)
        if segments.count > 1, case .literal(let text) = segments[0], text == "skd://" || text == "skd:",
            case .placeholder(let placeholder) = segments[1]
        {
            variableAfterScheme = placeholder.name
        } else {
            variableAfterScheme = nil
        }
        if case .literal(let text)? = segments.first, text.hasPrefix("skd:"), text.count > 4 {
            startsWithKeyScheme = true
        } else {
            startsWithKeyScheme = false
        }
        var names: [String] = []
        for case .placeholder(let placeholder) in segments where !names.contains(placeholder.name) { names.append(placeholder.name) }
        variableNames = names
    }

    /// The names of the variables the template uses, in order of first use. (Made once: asked by every
    /// part of a run that looks at the template.)
    public let variableNames: [String]

    public var description: String { source }
}

/// A template that cannot be parsed: what is wrong, and where (1-based column in the template text).
public struct TemplateSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public var column: Int

    public var description: String { "column \(column): \(message)" }
}
