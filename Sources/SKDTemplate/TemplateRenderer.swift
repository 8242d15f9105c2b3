/// Renders a template with values into a FairPlay key URI that is always a valid RFC 3986 `skd:` URI.
public struct TemplateRenderer: Sendable {
    public let template: Template
    public let specs: [String: VariableSpec]

    public init(template: Template, specs: [String: VariableSpec] = [:]) {
        self.template = template
        self.specs = specs
    }

    /// The URI for `values`, or an error that names the variable at fault and where its value came from.
    ///
    /// Each value is checked against its variable's `pattern`, filtered, and percent-encoded (see
    /// ``URIEscaping``); the result is checked once more as a whole, so nothing else can come out.
    public func render(_ values: [String: TemplateValue]) throws(RenderError) -> String {
        try render { values[$0] }
    }

    /// The URI with each variable's value from `lookup`, asked only for the variables the template uses:
    /// for callers whose values come from layered sources, so nothing is gathered that is not needed.
    public func render(_ lookup: (String) -> TemplateValue?) throws(RenderError) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(template.source.utf8.count + 64)
        for segment in template.segments {
            switch segment {
            case .literal(let text):
                bytes += text.utf8
            case .placeholder(let placeholder):
                try render(placeholder, lookup, appendingTo: &bytes)
            }
        }
        let uri = String(decoding: bytes, as: UTF8.self)
        try checkWhole(uri, lookup)
        return uri
    }

    /// The checks only a whole URI allows: that it is an `skd:` URI (for a template that does not start
    /// with `skd:` text of its own), and that no value after `skd://` brings a second scheme.
    func checkWhole(_ uri: String, _ lookup: (String) -> TemplateValue?) throws(RenderError) {
        if !template.startsWithKeyScheme, let problem = URIEscaping.problem(withKeyURI: uri) {
            throw RenderError(variable: nil, message: "the template \(template) does not make a key URI: \(problem)", problem: .notKeyURI)
        }
        try checkScheme(of: uri, lookup)
    }

    /// Checks one variable's value as rendering does (characters, its pattern, a second scheme after
    /// `skd://`) without the others: for a value fixed for a whole run, checked once before it starts.
    public func check(_ value: TemplateValue, of name: String) throws(RenderError) {
        let lookup = { (asked: String) in asked == name ? value : nil }
        for case .placeholder(let placeholder) in template.segments where placeholder.name == name {
            var bytes: [UInt8] = []
            try render(placeholder, lookup, appendingTo: &bytes)
            if name == template.variableAfterScheme { try checkScheme(of: "skd://" + String(decoding: bytes, as: UTF8.self), lookup) }
        }
    }

    /// A value right after `skd://` that brings a scheme of its own (`https://lic.example.com`) makes a URI
    /// no player can use.
    private func checkScheme(of uri: String, _ lookup: (String) -> TemplateValue?) throws(RenderError) {
        guard let name = template.variableAfterScheme, let scheme = LicenseURL.nestedScheme(in: uri) else { return }
        let source = lookup(name)?.source ?? "the template's default"
        throw RenderError(
            variable: name,
            message: "the value of \(name) (from \(source)) starts with \(scheme)://, so the key URI would be skd://\(scheme)://…, "
                + "which a player's resource loader requests as https://\(scheme)://…: write {\(name)|strip_scheme} in the template",
            problem: .notKeyURI)
    }

    /// One placeholder rendered with the value `lookup` gives (or the default), checked, filtered and encoded.
    func render(
        _ placeholder: Template.Placeholder, _ lookup: (String) -> TemplateValue?, appendingTo bytes: inout [UInt8]
    ) throws(RenderError) {
        let name = placeholder.name
        let spec = specs.isEmpty ? nil : specs[name]
        let given = lookup(name) ?? spec?.defaultValue.map { TemplateValue($0, source: "the template's default") }
        guard let given else {
            if spec?.required == false { return }
            throw RenderError(
                variable: name,
                message: "{\(name)} has no value: no source gives one, and the template has no default for it",
                problem: .missingValue)
        }
        if let scalar = TemplateValue.forbiddenScalar(in: given.value) {
            throw RenderError(
                variable: name,
                message: "the value \(shown(given.value, of: name)) of \(name) (from \(given.source)) holds "
                    + "\(scalar.escaped(asASCII: true)): a key URI never carries '\"' or a control character",
                problem: .forbiddenCharacter)
        }
        if let pattern = spec?.pattern, !pattern.matches(given.value) {
            throw RenderError(
                variable: name,
                message: "the value \(shown(given.value, of: name)) of \(name) (from \(given.source)) does not match "
                    + "its pattern \(pattern.text)" + (spec?.description.map { ": it should be \($0)" } ?? ""),
                problem: .patternMismatch)
        }
        var value = given.value
        for filter in placeholder.filters { value = filter.apply(to: value) }
        URIEscaping.encode(value, placeholder.filters.contains(.url) ? .queryValue : .pathOrQuery, appendingTo: &bytes)
    }

    /// A value as a message may show it: quoted and cut short, or `REDACTED` for a secret.
    public func shown(_ value: String, of name: String) -> String {
        if specs[name]?.secret == true { return Redaction.placeholder }
        let escaped = value.unicodeScalars.map {
            $0.isASCII && $0.value >= 0x20 && $0.value != 0x7F ? String($0) : $0.escaped(asASCII: true)
        }.joined()
        return escaped.count > 80 ? "\"\(escaped.prefix(77))...\"" : "\"\(escaped)\""
    }
}
