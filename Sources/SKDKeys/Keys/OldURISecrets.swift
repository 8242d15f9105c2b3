import Glibc
import SKDBytes
import SKDTemplate
import Synchronization

/// The secret parts of key URIs already in a playlist: a migration away from ExpressPlay tokens rewrites
/// URIs whose old token is as secret as a new one, and shows them as `before` in diffs and reports.
///
/// The forms known are the run's own template and every shipped template that has a secret variable:
/// an old URI of one of those forms has its secret values read back by ``TemplateMatcher``. (A `--match`
/// group named after a variable the template declares `secret` is secret through the template itself.)
/// A form's pattern is compiled when a URI first starts with its literal text, not before: most runs meet
/// none, and compiling costs more than a small playlist's whole run.
package struct OldURISecrets: Sendable {
    private let forms: [Form]
    /// The forms' prefixes, one after the other, and where each is: looked at for every key, without
    /// touching (retaining) a form until one matches.
    private let prefixes: [UInt8]
    private let ranges: [Range<Int>]

    private final class Form: Sendable {
        /// The template's literal text before its first placeholder: a URI without it is not of this form,
        /// told by a byte comparison before anything else.
        let prefix: [UInt8]
        /// The template, read (its variables' patterns compiled) when first needed.
        private let definition: @Sendable () -> TemplateDefinition?
        private let matcher = Mutex<TemplateMatcher??>(nil)

        init(prefix: [UInt8], definition: @escaping @Sendable () -> TemplateDefinition?) {
            self.prefix = prefix
            self.definition = definition
        }

        convenience init?(_ definition: TemplateDefinition) {
            guard !definition.secretNames.isEmpty, case .literal(let text)? = definition.uri.segments.first else { return nil }
            self.init(prefix: Array(text.utf8), definition: { definition })
        }

        func secrets(in uri: String) -> [Secret] {
            let matcher = matcher.withLock { cached in
                if let cached { return cached }
                let made = definition().flatMap { try? TemplateMatcher(definition: $0) }
                cached = .some(made)
                return made
            }
            return matcher?.secretValues(in: uri) ?? []
        }
    }

    /// The forms of `current`, the run's template, and of the shipped templates.
    package init(current: TemplateDefinition?) {
        forms = (current.flatMap(Form.init).map { [$0] } ?? []) + Self.shipped
        var prefixes: [UInt8] = []
        var ranges: [Range<Int>] = []
        for form in forms {
            ranges.append(prefixes.count..<(prefixes.count + form.prefix.count))
            prefixes += form.prefix
        }
        self.prefixes = prefixes
        self.ranges = ranges
        heads = forms.map { form in
            var (word, mask): (UInt64, UInt64) = (0, 0)
            for (index, byte) in form.prefix.prefix(8).enumerated() {
                word |= UInt64(byte) << (8 * index)
                mask |= 0xFF << (8 * index)
            }
            return (word, mask)
        }
    }

    /// Each form's first eight bytes (fewer where its prefix is shorter, the rest masked off), as a URI's
    /// are loaded: a URI of no known form is told so by a comparison a form, at every key a run renders.
    private let heads: [(word: UInt64, mask: UInt64)]

    /// The secret values `uri` holds, as written and decoded: those of a known form, and what looks like a
    /// bearer token whatever the form (``BearerTokens``).
    package func secrets(in uri: UnsafeRawBufferPointer) -> [Secret] {
        let bearer = BearerTokens.secrets(inURI: uri)
        let known = secretsOfKnownForms(in: uri)
        return bearer.isEmpty ? known : known + bearer
    }

    /// The secret values of a URI of a known form (a shipped template with a secret, or the run's own).
    private func secretsOfKnownForms(in uri: UnsafeRawBufferPointer) -> [Secret] {
        guard let base = uri.baseAddress else { return [] }
        if uri.count >= 8 {
            let head = UInt64(littleEndian: uri.loadUnaligned(as: UInt64.self))
            guard heads.contains(where: { head & $0.mask == $0.word }) else { return [] }
        }
        return prefixes.withUnsafeBytes { prefixes in
            for (index, range) in ranges.enumerated()
            where uri.count >= range.count && memcmp(base, prefixes.baseAddress! + range.lowerBound, range.count) == 0 {
                let values = forms[index].secrets(in: String(decoding: uri, as: UTF8.self))
                if !values.isEmpty { return values }
            }
            return []
        }
    }

    package func secrets(in uri: String) -> [Secret] {
        var uri = uri
        return uri.withUTF8 { secrets(in: UnsafeRawBufferPointer($0)) }
    }

    /// The shipped templates with a secret, known by the literal start of their `uri:` line; each is read
    /// (and its patterns compiled) only when an old URI starts so.
    /// (Read on the bytes: `String.contains` would load the string-processing library's machinery, which
    /// costs more at start-up than a small playlist's run.)
    private static let shipped: [Form] = TemplateLibrary.shippedNames.compactMap { name in
        guard let text = TemplateLibrary.shippedText(name).map({ Array($0.utf8) }), offset(of: "secret: true", in: text) != nil,
            let uri = offset(of: "\nuri: \"", in: text)
        else { return nil }
        let start = uri + "\nuri: \"".utf8.count
        let prefix = text[start...].prefix { $0 != UInt8(ascii: "{") && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "<") }
        guard !prefix.isEmpty else { return nil }
        return Form(prefix: Array(prefix)) { try? TemplateLibrary().resolve(name) }
    }

    private static func offset(of needle: String, in bytes: [UInt8]) -> Int? {
        var needle = needle
        return bytes.withUnsafeBytes { bytes in needle.withUTF8 { Bytes.offset(of: UnsafeRawBufferPointer($0), in: bytes) } }
    }
}
