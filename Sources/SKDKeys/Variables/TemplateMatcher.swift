import SKDBytes
import SKDFiles
import SKDTemplate

/// Whether a key URI is one a template makes: the check behind `validate --template`.
///
/// The URI is cut along the template's literal text (a regular expression built once, run only on key
/// URIs), each piece decoded back into a candidate value, and the template rendered again from those
/// values by the real renderer: the URI matches when the rendering gives it back exactly. So every
/// filter, escape and variable pattern is judged by the same code that writes URIs in `apply`.
public final class TemplateMatcher: @unchecked Sendable {
    // @unchecked: the compiled regex is only read after init (see ValuePattern).
    public let definition: TemplateDefinition
    /// Values the URI must have been made with (`--var` on `validate`): a migration audit pins the new
    /// server, say.
    public let pinned: [String: String]
    private let shape: SwiftRegex
    /// The template's literal text between its placeholders (one more piece than placeholders, any of them
    /// empty): what ``captures(in:)`` cuts a URI along.
    private let literals: [[UInt8]]
    private let placeholders: [Template.Placeholder]
    /// Which placeholders hold a secret variable: worked out once, as every FairPlay key is asked.
    private let secretPlaceholders: [Int]

    public enum Verdict: Equatable, Sendable {
        case matches
        /// Why not, as a sentence that names the template and what to change.
        case mismatch(String)
    }

    /// How messages name where pinned values come from.
    public let names: SettingNames
    /// The pinned values read from files (`--var-file`), named so in messages.
    public let fromFiles: Set<String>

    /// How messages name where the pinned value of `name` came from.
    func givenSource(of name: String) -> String { names[.given(name, fromFiles: fromFiles)] }

    public init(
        definition: TemplateDefinition, pinned: [String: String] = [:], fromFiles: Set<String> = [], names: SettingNames = SettingNames()
    ) throws {
        self.definition = definition
        self.pinned = pinned
        self.fromFiles = fromFiles
        self.names = names
        var pattern = ""
        var placeholders: [Template.Placeholder] = []
        var literals: [[UInt8]] = [[]]
        for segment in definition.uri.segments {
            switch segment {
            case .literal(let text):
                for character in text {
                    if "\\^$.|?*+()[]{}".contains(character) { pattern.append("\\") }
                    pattern.append(character)
                }
                literals[literals.count - 1] += Array(text.utf8)
            case .placeholder(let placeholder):
                placeholders.append(placeholder)
                pattern += "(.*?)"
                literals.append([])
            }
        }
        self.shape = SwiftRegex(try Regex(pattern).matchingSemantics(.unicodeScalar))
        self.literals = literals
        self.placeholders = placeholders
        let secrets = definition.secretNames
        self.secretPlaceholders = placeholders.indices.filter { secrets.contains(placeholders[$0].name) }
    }

    /// Whether `uri` is one the template makes with the pinned values and `expected` (a title's own values,
    /// from its catalogue row or path; `--var`'s pinned values beat them).
    public func check(_ uri: String, expected: [String: String] = [:]) -> Verdict {
        let renderer = definition.renderer
        let pinned = expected.filter { name, _ in placeholders.contains { $0.name == name } }.merging(self.pinned) { $1 }
        let firstRendering: String
        switch values(in: uri, pinned: pinned) {
        case .noForm:
            // An inline template is named by its text: said once.
            let form = definition.name == "\(definition.uri)" ? definition.name : "\(definition.name) (\(definition.uri))"
            return .mismatch("this key URI does not have the form of the template \(form)")
        case .found: return .matches
        case .error(let error): return .mismatch("\(error.message) (template \(definition.name))")
        case .rendered(let rendering): firstRendering = rendering
        }
        // Each value with where it came from, when the run gave it (the others are this title's, or this key's).
        let pins = pinned.keys.sorted().map { name in
            "\(name)=\(renderer.shown(pinned[name]!, of: name))" + (self.pinned[name] != nil ? " (\(givenSource(of: name)))" : "")
        }.joined(separator: ", ")
        // The rendering holds the pinned values as they are: a secret one (a token) is hidden.
        let secrets = definition.secretNames
        let redaction = Redaction(secrets: pinned.filter { secrets.contains($0.key) }.map { Secret($0.value) })
        let rendering = " makes \(redaction.redact(firstRendering))"
        // Where the URI differs only in its secret part, the two would read alike once hidden: said so.
        let both = redaction.adding(secretValues(in: uri))
        let pinnedSecrets = secrets.filter { pinned[$0] != nil }.sorted()
        if !pinnedSecrets.isEmpty, both.redact(firstRendering) == both.redact(uri) {
            return .mismatch(
                "this key URI is the one the template \(definition.name) makes with \(pins) but for its secret "
                    + "\(pinnedSecrets.joined(separator: ", ")): the value here is another than the one given (neither is shown)")
        }
        return .mismatch(
            pins.isEmpty
                ? "this key URI is not one the template \(definition.name) makes (\(definition.uri))"
                : "with \(pins) the template \(definition.name)\(rendering), not this URI")
    }

    /// What a search for the values behind a URI found.
    enum Search {
        /// The URI has not the template's literal text.
        case noForm
        /// These values make it.
        case found([String: String])
        /// No values make it; the first rendering tried.
        case rendered(String)
        /// No candidate renders at all.
        case error(RenderError)
    }

    /// The values the template makes `uri` with, `pinned` fixed: each candidate read back from the URI's
    /// pieces is rendered by the real renderer, and the one that gives the URI back wins.
    func values(in uri: String, pinned: [String: String]) -> Search {
        let renderer = definition.renderer
        guard let captures = captures(in: uri) else { return .noForm }
        var candidates: [[String: String]] = [[:]]
        for (index, placeholder) in placeholders.enumerated() where candidates[0][placeholder.name] == nil {
            let captured = captures[index]
            let values = pinned[placeholder.name].map { [$0] } ?? Self.values(behind: captured, placeholder)
            candidates = candidates.flatMap { partial in values.map { partial.merging([placeholder.name: $0]) { $1 } } }
        }
        var firstError: RenderError?
        var firstRendering: String?
        for candidate in candidates {
            do {
                let rendered = try renderer.render { name in
                    candidate[name].map { TemplateValue($0, source: pinned[name] == nil ? "the URI" : self.givenSource(of: name)) }
                }
                if rendered == uri { return .found(candidate) }
                if firstRendering == nil { firstRendering = rendered }
            } catch {
                if firstError == nil { firstError = error }
            }
        }
        if let firstRendering { return .rendered(firstRendering) }
        return firstError.map(Search.error) ?? .noForm
    }

    /// The values `uri` carries where they differ from `expected` (a title's own), when the template makes
    /// it with other values than the title's: what another title's key looks like.
    public func differingValues(in uri: String, expected: [String: String]) -> [(name: String, carried: String, expected: String)] {
        guard case .found(let values) = self.values(in: uri, pinned: pinned) else { return [] }
        return expected.keys.sorted().compactMap { name in
            guard let carried = values[name], let own = expected[name], carried != own else { return nil }
            return (name, carried, own)
        }
    }

    /// What stands where the template's secret variables are, in a URI of the template's form: the text as
    /// written and decoded. Empty when the template has no secret or the URI another form.
    public func secretValues(in uri: String) -> [Secret] {
        guard !secretPlaceholders.isEmpty, let captures = captures(in: uri) else { return [] }
        var values: [String] = []
        for index in secretPlaceholders {
            let captured = captures[index]
            guard !captured.isEmpty else { continue }
            values.append(captured)
            if let decoded = URIEscaping.decode(captured), decoded != captured { values.append(decoded) }
        }
        return values.map(Secret.init)
    }

    /// The text at each placeholder of `uri`, where the URI has the template's literal text around them (the
    /// whole match of `literal(.*?)literal…`): each value as short as the rest allows, tried on the URI's bytes
    /// (at every FairPlay key `validate --template` reads), each place a piece was tried at and failed kept, so
    /// that no place is tried twice. A URI beyond printable ASCII (where the expression's `.` and a byte differ)
    /// goes to the regular expression.
    func captures(in uri: String) -> [String]? {
        guard uri.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return regexCaptures(in: uri) }
        var uri = uri
        return uri.withUTF8 { bytes in
            let bytes = UnsafeRawBufferPointer(bytes)
            var ends = [Int](repeating: 0, count: literals.count)
            var failed = [Bool](repeating: false, count: literals.count * (bytes.count + 1))
            guard Self.place(literals, in: bytes, piece: 0, at: 0, ends: &ends, failed: &failed) else { return nil }
            return (0..<(literals.count - 1)).map { index in
                let end = ends[index + 1] - literals[index + 1].count
                return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[ends[index]..<end]), as: UTF8.self)
            }
        }
    }

    /// The same by the regular expression (what the byte search is held to in tests).
    func regexCaptures(in uri: String) -> [String]? {
        guard let match = try? shape.regex.wholeMatch(in: uri) else { return nil }
        return placeholders.indices.map { match.output[$0 + 1].substring.map(String.init) ?? "" }
    }

    /// Whether the literal pieces from `piece` on stand in `uri` from `start` with values between them, each
    /// as short as the rest allows (`ends[i]`: where piece `i` ends); `failed` marks each piece and place tried
    /// without success.
    private static func place(
        _ literals: [[UInt8]], in uri: UnsafeRawBufferPointer, piece: Int, at start: Int, ends: inout [Int], failed: inout [Bool]
    ) -> Bool {
        let tried = piece * (uri.count + 1) + start
        guard !failed[tried] else { return false }
        let literal = literals[piece]
        let end = start + literal.count
        let found =
            end <= uri.count && literal.withUnsafeBytes { Bytes.equal($0, UnsafeRawBufferPointer(rebasing: uri[start..<end])) }
            && (piece + 1 == literals.count
                ? end == uri.count
                : (end...uri.count).contains { place(literals, in: uri, piece: piece + 1, at: $0, ends: &ends, failed: &failed) })
        if found { ends[piece] = end } else { failed[tried] = true }
        return found
    }

    /// The values that may have rendered as `captured`: with percent-escapes undone and as it is, and for
    /// `strip_scheme` the https URL the scheme was stripped from as well as the text itself.
    private static func values(behind captured: String, _ placeholder: Template.Placeholder) -> [String] {
        // The text as it stands too: the renderer keeps an escape already in a value ("x%41y" stays), so
        // the decoded text alone would not give such a URI back.
        let texts = [URIEscaping.decode(captured), captured].compactMap { $0 }.reduce(into: [String]()) { unique, text in
            if !unique.contains(text) { unique.append(text) }
        }
        return placeholder.filters.contains(.stripScheme) ? texts.map { "https://" + $0 } + texts : texts
    }
}
