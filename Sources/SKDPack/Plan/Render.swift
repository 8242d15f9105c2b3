import MP4
import SKDFiles
import SKDKeys
import SKDTemplate

/// What a `render` is asked: the URI a template makes for one key, with the values and built-ins `apply`
/// would give it, as plain values.
public struct RenderRequest: Sendable, Equatable {
    /// The template: a shipped name, a template file or an inline URI template.
    public var template: String
    /// The values the URI takes, and where they come from.
    public var values = ValuesRequest()
    /// The playlist path the built-ins `playlist`, `playlist_stem` and `title_dir` (and a catalogue row or a
    /// path pattern) come from.
    public var playlist = "playlist.m3u8"
    /// The built-in `key_index`.
    public var keyIndex = 0
    /// The built-in `kid`: the key period's KEYID, 32 hexadecimal digits (`0x` before them allowed).
    public var kid: String?
    /// The built-in `old_uri`, and what ``ValuesRequest/match`` reads.
    public var oldURI: String?
    /// Whether a secret's value may show in what the caller prints (the rendered URI holds it as it is).
    public var showsSecrets = false

    public init(template: String) {
        self.template = template
    }
}

/// A key URI rendered, and what its caller may show of it.
public struct Rendering: Sendable {
    /// The URI, as `apply` would write it.
    public var uri: String
    /// What hides the run's secrets (its template's secret values, a token the old URI holds) in anything
    /// shown: ``Redaction/showingSecrets`` when the request allows them.
    public var redaction: Redaction
    /// The hosts the template lets the URI's license URL point at (none: any).
    public var allowHosts: [String]
}

/// What became of a render: a URI, or why the template makes none with these values.
public enum RenderOutcome: Sendable {
    case rendered(Rendering)
    /// The template makes no URI (a value missing or refused by its pattern): why, and where a value comes
    /// from; shown through `redaction`, as a rendering is.
    case unrendered(String, redaction: Redaction)
}

extension Planner {
    /// Renders the URI `request` asks for, as `apply` renders a key's: a value given for no variable of the
    /// template, a KEYID that is not 32 hexadecimal digits, or an old URI the match pattern does not find is a
    /// ``RequestProblem``.
    public static func render(_ request: RenderRequest, names: SettingNames) throws(RequestProblem) -> RenderOutcome {
        let definition = try keyTemplate(request.template, names: names).definition
        let sources = try variableSources(request.values, names: names)
        let variables = definition.uri.variableNames
        if let name = sources.commandLine.map(\.name).first(where: { !variables.contains($0) }) {
            let setting = Setting.given(name, fromFiles: sources.fromFiles)
            throw RequestProblem(setting, noSuchVariable(name, of: definition, variables: variables, setting: setting, names: names))
        }
        if request.kid != nil, !variables.contains("kid") {
            throw RequestProblem(
                .kid,
                "\(names[.kid]): the template \(definition.name) has no variable kid (its variables: \(variables.joined(separator: ", ")))")
        }
        let kid = try request.kid.map { kid throws(RequestProblem) in try keyID(kid, names: names) }
        let values = sources.keyValues(
            playlist: sources.playlistValues(for: PlaylistIdentity(path: request.playlist)), keyIndex: request.keyIndex, kid: kid,
            oldURI: request.oldURI, line: 0)
        // A secret goes into playlists and nowhere else: not into a terminal or a CI log unless asked for (the
        // template's secret values, values read from files or that are bearer tokens, the old URI's token, one
        // written in the template itself).
        let redaction =
            request.showsSecrets
            ? Redaction.showingSecrets
            : Redaction.ofRun(template: definition, given: sources.commandLine, fromFiles: sources.fromFiles, keyTruth: KeyTruth())
                .adding(definition.secretNames.compactMap { values[$0].map { Secret($0.value) } })
                .adding(KeyURISecrets.redaction(of: request.oldURI.map { [$0] } ?? []))
        if let oldURI = request.oldURI, let match = sources.match, match.groups(in: oldURI) == nil {
            throw RequestProblem(.oldURI, redaction.redact("\(names[.oldURI]) \(oldURI) does not match \(names[.match]) \(match.text)"))
        }
        do throws(RenderError) {
            let uri = try definition.renderer.render(values)
            return .rendered(Rendering(uri: uri, redaction: redaction, allowHosts: definition.allowHosts))
        } catch {
            var message = error.message
            if error.problem == .missingValue, let name = error.variable {
                // The built-ins a render takes from its own settings are named by them.
                let setting: Setting? = name == "kid" ? .kid : name == "old_uri" ? .oldURI : nil
                message += " (\(setting.map { "give \(names[$0])" } ?? names.whereValuesComeFrom(for: name)))"
            }
            return .unrendered(message, redaction: redaction)
        }
    }

    /// `text` as the built-in `kid` has a KEYID: 32 lower-case hexadecimal digits, from 32 digits in either
    /// case with or without `0x` before them, or a UUID (as `cpix show` and CPIX documents write key ids).
    static func keyID(_ text: String, names: SettingNames) throws(RequestProblem) -> String {
        let digits = text.hasPrefix("0x") || text.hasPrefix("0X") ? String(text.dropFirst(2)) : text
        guard let keyID = KeyID(digits) else {
            throw RequestProblem(
                .kid, "\(names[.kid]) \(text): a KEYID is 32 hexadecimal digits (0x before them allowed) or a UUID")
        }
        return keyID.hex
    }

    /// Why a value given for the run under `setting` is refused: the template has no variable `name`; the
    /// variable meant, and the template's `variables`.
    static func noSuchVariable(
        _ name: String, of definition: TemplateDefinition, variables: [String], setting: Setting, names: SettingNames
    ) -> String {
        "\(names[setting]) \(name): the template \(definition.name) has no variable \(name)"
            + (NearestName.nearest(to: name, in: variables).map { "; did you mean \($0)?" } ?? "")
            + " (its variables: \(variables.joined(separator: ", ")))"
    }
}
