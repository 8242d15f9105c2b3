import HLS
import SKDTemplate

extension PlaylistInspection {
    /// The secrets its key URIs hold in the form of a shipped template with a secret variable (an
    /// ExpressPlay token), as `validate` finds them without a template: what `inspect` shows as `REDACTED`.
    public var keyURISecrets: Redaction {
        let secrets = OldURISecrets(current: nil)
        var found: [String] = []
        for tag in tags where tag.name == TagName.key.rawValue || tag.name == TagName.sessionKey.rawValue {
            for attribute in tag.attributes ?? [] where attribute.name == "URI" {
                if case .string(let uri) = attribute.value { found += secrets.secrets(in: uri) }
            }
        }
        return Redaction(secrets: found)
    }
}
