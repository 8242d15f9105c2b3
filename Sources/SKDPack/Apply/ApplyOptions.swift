import HLS
import SKDTemplate

/// What `apply` is asked to do.
public struct ApplyOptions: Sendable {
    public var template: TemplateDefinition
    public var variables: VariableSources
    /// Give a FairPlay key to media playlists without any key (clear media).
    public var assumeEncrypted: Bool
    /// Add missing FairPlay `EXT-X-SESSION-KEY`s to master playlists (as the template's `session_keys`).
    public var sessionKeys: Bool
    public var readerOptions: ReaderOptions

    public init(
        template: TemplateDefinition, variables: VariableSources = VariableSources(), assumeEncrypted: Bool = false,
        sessionKeys: Bool = false
    ) {
        self.template = template
        self.variables = variables
        self.assumeEncrypted = assumeEncrypted
        self.sessionKeys = sessionKeys
        var readerOptions = ReaderOptions()
        // apply checks every key it touches; the rest of the grammar is validate's business.
        readerOptions.parsesEveryTag = false
        self.readerOptions = readerOptions
    }

    /// Secrets of the template, for redacting what apply reports.
    public var redaction: Redaction {
        let names = template.secretNames
        return Redaction(secrets: variables.commandLine.filter { names.contains($0.name) }.map(\.value))
    }
}

/// What apply did, or would do, to one playlist.
public struct PlaylistOutcome: Sendable {
    public var path: String
    public var kind: PlaylistKind
    public var changes: [ApplyChange] = []
    public var diagnostics: [Diagnostic] = []
    /// An error kept the playlist as it was.
    public var failed: Bool { diagnostics.contains { $0.severity == .error } }
    /// The FairPlay keys the playlist uses once applied, for its master's session keys.
    public var fairPlayKeys: [SessionKeyValue] = []

    public init(path: String, kind: PlaylistKind) {
        self.path = path
        self.kind = kind
    }

    public var changed: Bool { !changes.isEmpty && !failed }
}

/// The attributes a FairPlay session key copies from the media keys (RFC 8216 4.3.4.5).
public struct SessionKeyValue: Hashable, Sendable {
    public var method: String
    public var uri: String
    public var keyFormat: String
    public var keyFormatVersions: String?
    public var iv: String?

    /// The `EXT-X-SESSION-KEY` line for this key, attributes in the order skdpack writes keys.
    public var line: String {
        var text = "#EXT-X-SESSION-KEY:METHOD=\(method),URI=\"\(uri)\""
        if let iv { text += ",IV=\(iv)" }
        text += ",KEYFORMAT=\"\(keyFormat)\""
        if let keyFormatVersions { text += ",KEYFORMATVERSIONS=\"\(keyFormatVersions)\"" }
        return text
    }
}
