import SKDTemplate

/// The secret parts of key URIs already in a playlist: a migration away from ExpressPlay tokens rewrites
/// URIs whose old token is as secret as a new one, and shows them as `before` in diffs and reports.
///
/// The forms known are the run's own template and every shipped template that has a secret variable:
/// an old URI of one of those forms has its secret values read back by ``TemplateMatcher``. (A `--match`
/// group named after a variable the template declares `secret` is secret through the template itself.)
struct OldURISecrets: Sendable {
    private let forms: [Form]

    private struct Form: Sendable {
        /// The template's literal text before its first placeholder: a URI without it is not of this form,
        /// told by a byte comparison before any pattern runs.
        var prefix: [UInt8]
        var matcher: TemplateMatcher
    }

    /// The forms of `current`, the run's template read backwards (its pattern is compiled already), and of
    /// the shipped templates.
    init(current: TemplateMatcher?) {
        forms = (current.flatMap(Self.form).map { [$0] } ?? []) + Self.shipped
    }

    /// Whether no form has a secret: nothing to look for.
    var isEmpty: Bool { forms.isEmpty }

    /// The secret values `uri` holds, as written and decoded.
    func secrets(in uri: UnsafeRawBufferPointer) -> [String] {
        for form in forms where uri.starts(with: form.prefix) {
            let values = form.matcher.secretValues(in: String(decoding: uri, as: UTF8.self))
            if !values.isEmpty { return values }
        }
        return []
    }

    func secrets(in uri: String) -> [String] {
        var uri = uri
        return uri.withUTF8 { secrets(in: UnsafeRawBufferPointer($0)) }
    }

    /// The shipped templates with a secret, read once in a process, when first needed.
    private static let shipped: [Form] = TemplateLibrary.shippedNames.compactMap { name in
        guard TemplateLibrary.shippedText(name)?.contains("secret: true") == true,
            let definition = try? TemplateLibrary().resolve(name), !definition.secretNames.isEmpty
        else { return nil }
        return (try? TemplateMatcher(definition: definition)).flatMap(form)
    }

    private static func form(_ matcher: TemplateMatcher) -> Form? {
        guard !matcher.definition.secretNames.isEmpty, case .literal(let text)? = matcher.definition.uri.segments.first else {
            return nil
        }
        return Form(prefix: Array(text.utf8), matcher: matcher)
    }
}
