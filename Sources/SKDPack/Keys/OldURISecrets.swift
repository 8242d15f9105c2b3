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

    init(current: TemplateDefinition?) {
        forms = Self.forms(of: current.map { [$0] } ?? []) + Self.shipped
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
    private static let shipped: [Form] = forms(
        of: TemplateLibrary.shippedNames.compactMap { name in
            guard TemplateLibrary.shippedText(name)?.contains("secret: true") == true else { return nil }
            return try? TemplateLibrary().resolve(name)
        })

    private static func forms(of definitions: [TemplateDefinition]) -> [Form] {
        definitions.compactMap { definition in
            guard !definition.secretNames.isEmpty, case .literal(let text)? = definition.uri.segments.first,
                let matcher = try? TemplateMatcher(definition: definition)
            else { return nil }
            return Form(prefix: Array(text.utf8), matcher: matcher)
        }
    }
}
