import HLS
import SKDTemplate

extension PlaylistInspection {
    /// The secrets its key URIs hold in the form of a shipped template with a secret variable (an
    /// ExpressPlay token), as `validate` finds them without a template: what `inspect` shows as `REDACTED`.
    public var keyURISecrets: Redaction {
        var uris: [String] = []
        for tag in tags where tag.name == TagName.key.rawValue || tag.name == TagName.sessionKey.rawValue {
            for attribute in tag.attributes ?? [] where attribute.name == "URI" {
                if case .string(let uri) = attribute.value { uris.append(Self.substituting(variables, in: uri)) }
            }
        }
        return KeyURISecrets.redaction(of: uris)
    }

    /// `uri` with each `{$name}` the playlist defines replaced by its value: a token an `EXT-X-DEFINE` holds
    /// is the URI's secret, and the value shown where the define is too.
    private static func substituting(_ variables: [String: String], in uri: String) -> String {
        guard uri.contains("{$") else { return uri }
        var uri = uri
        for (name, value) in variables { uri = uri.replacing("{$\(name)}", with: value) }
        return uri
    }
}

/// The secrets key URIs hold in the form of a shipped template with a secret variable (an ExpressPlay
/// token), found without a template: for what shows a key URI someone gave (`inspect`, `resolve`).
public enum KeyURISecrets {
    public static func redaction(of uris: [String]) -> Redaction {
        let secrets = OldURISecrets(current: nil)
        return Redaction(secrets: uris.flatMap { secrets.secrets(in: $0) })
    }
}
