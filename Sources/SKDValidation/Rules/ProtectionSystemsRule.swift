import HLS
import SKDKeys

/// A player switches between the variants, renditions and I-frame playlists of a title freely: one that
/// lacks a protection system the others carry fails on the devices that use that system, mid-playback.
enum ProtectionSystemsRule {
    static let kind = DiagnosticKind(
        id: "PKG-protection-mismatch", severity: .error,
        summary: "The playlists of a title do not all carry the same protection systems (KEYFORMATs).",
        specSection: "4.3.2.4")

    static func check(master: PlaylistValidation, media: [PlaylistValidation]) -> [Diagnostic] {
        let media = media.filter { $0.kind == .media }
        guard media.count > 1 else { return [] }
        // The set most playlists carry is the title's; each playlist that differs is reported.
        var tally: [Set<String>: Int] = [:]
        for playlist in media { tally[playlist.keys.protectionSystems, default: 0] += 1 }
        guard tally.count > 1, let expected = tally.max(by: { ($0.value, $0.key.count) < ($1.value, $1.key.count) })?.key
        else { return [] }
        return media.filter { $0.keys.protectionSystems != expected }.map { playlist in
            kind(
                "this playlist carries \(describe(playlist.keys.protectionSystems)) while the rest of \(master.path) "
                    + "carries \(describe(expected)); give every variant, rendition and I-frame playlist the same systems",
                at: SourceLocation(path: playlist.path, line: 1, column: 1, offset: 0))
        }
    }

    static func describe(_ systems: Set<String>) -> String {
        guard !systems.isEmpty else { return "no key (clear)" }
        let names: [String: String] = [
            FairPlay.keyFormat: "FairPlay", "com.microsoft.playready": "PlayReady",
            "urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed": "Widevine", "identity": "AES-128 (identity)",
        ]
        return systems.map { names[$0.lowercased()] ?? $0 }.sorted().joined(separator: ", ")
    }
}
