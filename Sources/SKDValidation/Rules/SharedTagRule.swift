import HLS

/// RFC 8216 4.3.5: EXT-X-INDEPENDENT-SEGMENTS and EXT-X-START may sit in a master or in its media
/// playlists. In the master they "SHOULD NOT appear in any Media Playlist referenced by that Master
/// Playlist", and "a tag that appears in both MUST have the same value": a player reads one or the other.
enum SharedTagRule {
    static let repeatedKind = DiagnosticKind(
        id: "PKG-shared-tag-repeated", severity: .warning,
        summary: "EXT-X-INDEPENDENT-SEGMENTS or EXT-X-START is in the master and again in a media playlist of it.",
        specSection: "4.3.5")
    static let differentKind = DiagnosticKind(
        id: "PKG-shared-tag-differs", severity: .error,
        summary: "EXT-X-START (or EXT-X-INDEPENDENT-SEGMENTS) has one value in the master and another in a media playlist of it.",
        specSection: "4.3.5")

    static func check(_ package: PackageContents) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        for shared in package.master.presentation.sharedTags {
            for playlist in package.media where playlist.kind == .media {
                guard let own = playlist.presentation.sharedTags.first(where: { $0.name == shared.name }) else { continue }
                let location = SourceLocation(path: playlist.path, line: own.line, column: 1, offset: 0)
                let tag = "#" + shared.name.rawValue
                if own.value == shared.value {
                    findings.append(
                        repeatedKind("\(tag) is in the master already (line \(shared.line)); keep it in one place", at: location))
                } else {
                    findings.append(
                        differentKind(
                            "\(tag):\(own.value.prefix(60)) differs from the master's \(tag):\(shared.value.prefix(60)) (line \(shared.line)); make them equal",
                            at: location))
                }
            }
        }
        return findings
    }
}
