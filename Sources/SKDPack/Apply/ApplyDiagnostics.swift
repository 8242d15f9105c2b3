import HLS
import SKDKeys
import SKDValidation

/// The findings `apply` makes itself (the reader's own are in ``ParseDiagnostics``).
public enum ApplyDiagnostics {
    public static let unusableMethod = DiagnosticKind(
        id: "FPS-method-unusable", severity: .error,
        summary: "A key period is encrypted with a METHOD FairPlay cannot decrypt (AES-128, SAMPLE-AES-CTR): "
            + "no FairPlay key can serve it.",
        specSection: "Apple HLS Authoring Specification for Apple Devices (FairPlay Streaming encryption)")
    public static let clearPlaylist = DiagnosticKind(
        id: "FPS-clear-playlist", severity: .warning,
        summary: "A media playlist has no keys at all: it gets a FairPlay key only if the run is told its media is encrypted.",
        specSection: "Apple HLS Authoring Specification for Apple Devices (FairPlay Streaming encryption)")
    public static let renderFailed = DiagnosticKind(
        id: "TPL-render", severity: .error,
        summary: "A key URI could not be rendered from the template: a variable is missing or breaks its pattern.",
        specSection: "4.3.2.4")
    public static let unwritable = DiagnosticKind(
        id: "TPL-unwritable", severity: .error,
        summary: "A value does not fit the attribute it would be written to (a quoted-string holding '\"' or a "
            + "control character, an enumerated-string holding ',' or a space): the line is not written.",
        specSection: "4.2")
    public static let matchFailed = DiagnosticKind(
        id: "TPL-match", severity: .error,
        summary: "An existing FairPlay key URI does not match the migration's match pattern, so it cannot be read.",
        specSection: "4.3.2.4")
    public static let matchCapturedSecret = DiagnosticKind(
        id: "TPL-match-secret", severity: .error,
        summary: "A group of the old-URI pattern the template writes in clear (a content id) captured a secret part of the old key URI "
            + "(an ExpressPlay token): the new URI would carry the token in clear.",
        specSection: "4.3.2.4")
    public static let matchCapturedURI = DiagnosticKind(
        id: "TPL-match-uri", severity: .error,
        summary: "The old-URI pattern's group content_id captured a URI's scheme or query (a group that takes the rest of the old "
            + "URI), or the old URI's host where the URI names its title in a query: not a content id alone, so the new URI "
            + "would name a title the license server does not know.",
        specSection: "4.3.2.4")
    public static let literalAfterDefine = DiagnosticKind(
        id: "HLS-define-literal", severity: .info,
        summary: "A key URI that used {$variable} references is rewritten as a literal URI.",
        specSection: "bis 4.3")
    public static let keyFormatVariable = DiagnosticKind(
        id: "TPL-keyformat-variable", severity: .error,
        summary: "A key's KEYFORMAT is written with a {$variable}: apply cannot tell whether it is FairPlay's key, so "
            + "the playlist is left as it was (validate judges it after substitution).",
        specSection: "bis 4.3")
    public static let titleLocked = DiagnosticKind(
        id: "PKG-title-locked", severity: .error,
        summary: "Another skdpack run held the title for as long as this one would wait: the title is left as it was "
            + "(run again when the other has finished).",
        specSection: "skdpack: a title is changed whole or not at all")
    public static let rootRelativeTitle = DiagnosticKind(
        id: "PKG-root-relative", severity: .error,
        summary: "A master references its playlists by root-relative URIs (/…) and no document root is given: its "
            + "renditions cannot be read here, so the title is left as it was, whole.",
        specSection: "skdpack: a title is changed whole or not at all (RFC 8216 4.1)")

    public static let mediaFailed = DiagnosticKind(
        id: "PKG-media-failed", severity: .error,
        summary: "A master is left as it was because one of its media playlists has errors: its session keys must not run ahead.",
        specSection: "4.3.4.5")

    public static let titleFailed = DiagnosticKind(
        id: "PKG-title-failed", severity: .error,
        summary: "A playlist is left as it was because another playlist of its title could not be updated: "
            + "a title is changed whole or not at all.",
        specSection: "4.3.4.2")

    public static let renditionAlone = DiagnosticKind(
        id: "PKG-rendition-alone", severity: .error,
        summary: "A media playlist given without the master that lists it would be rewritten with a FairPlay key the "
            + "master's session keys do not announce: its title would be left half changed (apply the title).",
        specSection: "4.3.4.5")

    public static let all: [DiagnosticKind] = [
        unwritable,
        unusableMethod, clearPlaylist, renderFailed, matchFailed, matchCapturedSecret, matchCapturedURI, literalAfterDefine,
        mediaFailed, titleFailed, titleLocked, keyFormatVariable,
        renditionAlone, rootRelativeTitle, KeyMapDiagnostics.rotationFolded,
    ].sorted { $0.id < $1.id }
}
