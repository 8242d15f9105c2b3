import HLS
import SKDFiles

/// rfc8216bis 6.2.4: "Each Media Playlist in each Variant Stream and Rendition MUST have the same Target
/// Duration. The only exceptions are SUBTITLES Renditions and Media Playlists containing an
/// EXT-X-I-FRAMES-ONLY tag, which MAY have different Target Durations if they have an EXT-X-PLAYLIST-TYPE
/// of VOD", and "If any Media Playlists have an EXT-X-PLAYLIST-TYPE tag, all Media Playlists MUST have an
/// EXT-X-PLAYLIST-TYPE tag with the same value." A player switching variants times its reloads and its
/// live edge by the target duration: playlists that disagree make it stall or jump.
///
/// The package's own value is the one most of its media playlists have (the first read, on a tie); each
/// playlist that differs is one finding at its tag (or its first line, for a type it lacks).
enum PackageTargetDurationRule {
    static let targetKind = DiagnosticKind(
        id: "PKG-target-duration", severity: .error,
        summary: "The media playlists of a package have different EXT-X-TARGETDURATIONs.", specSection: "bis 6.2.4")
    static let typeKind = DiagnosticKind(
        id: "PKG-playlist-type", severity: .error,
        summary: "Some media playlists of a package have an EXT-X-PLAYLIST-TYPE and others another or none.",
        specSection: "bis 6.2.4")

    static func check(_ package: PackageContents) -> [Diagnostic] {
        let playlists = package.media.filter { $0.kind == .media }
        guard playlists.count > 1 else { return [] }
        let directory = AtomicFile.directory(of: package.master.path)
        let subtitles = Set(
            package.master.variants.renditions.filter { $0.type == "SUBTITLES" }.compactMap(\.uri).compactMap { uri in
                MasterReferences.localPath(uri).map { PathComponents.normalized(directory + "/" + $0) }
            })
        func exempt(_ playlist: PlaylistValidation) -> Bool {
            playlist.presentation.playlistType?.value == "VOD"
                && (playlist.presentation.isIFramesOnly || subtitles.contains(PathComponents.normalized(playlist.path)))
        }
        var findings = differing(
            playlists.filter { !exempt($0) }, \.presentation.targetDuration, kind: targetKind,
            message: { own, common, others in
                "EXT-X-TARGETDURATION:\(own?.value ?? "") differs from the \(common) s of \(others); every media playlist of a variant "
                    + "stream or rendition has the same target duration (rfc8216bis 6.2.4): make them equal"
            })
        if playlists.contains(where: { $0.presentation.playlistType != nil }) {
            findings += differing(
                playlists, \.presentation.playlistType, kind: typeKind, includingMissing: true,
                message: { own, common, others in
                    "\(own.map { "EXT-X-PLAYLIST-TYPE:\($0.value)" } ?? "no EXT-X-PLAYLIST-TYPE"), unlike \(others) "
                        + "(\(common == "none" ? "no EXT-X-PLAYLIST-TYPE" : "EXT-X-PLAYLIST-TYPE:\(common)")); if one media playlist of a "
                        + "package has the tag, all have it with the same value (rfc8216bis 6.2.4)"
                })
        }
        return findings
    }

    /// One finding per playlist whose `value` is not the one most of `playlists` have; `includingMissing`:
    /// a playlist without the tag counts as having the value "none" (else it is not compared).
    private static func differing(
        _ playlists: [PlaylistValidation], _ value: KeyPath<PlaylistValidation, PresentationFacts.SharedTag?>,
        kind: DiagnosticKind, includingMissing: Bool = false, message: (PresentationFacts.SharedTag?, String, String) -> String
    ) -> [Diagnostic] {
        let written = playlists.compactMap { playlist -> (PlaylistValidation, String)? in
            if let tag = playlist[keyPath: value] { return (playlist, tag.value) }
            return includingMissing ? (playlist, "none") : nil
        }
        var counts: [String: Int] = [:]
        for (_, text) in written { counts[text, default: 0] += 1 }
        guard counts.count > 1 else { return [] }
        // The most common value; on a tie, the first playlist's.
        let most = counts.values.max() ?? 0
        guard let mostCommon = written.first(where: { counts[$0.1] == most })?.1 else { return [] }
        let holders = written.filter { $0.1 == mostCommon }.map { $0.0.path }
        let others = holders.count == 1 ? fileName(holders[0]) : "\(fileName(holders[0])) and \(holders.count - 1) more"
        return written.filter { $0.1 != mostCommon }.map { playlist, _ in
            let own = playlist[keyPath: value]
            let location = SourceLocation(path: playlist.path, line: own?.line ?? 1, column: 1, offset: 0)
            return kind(message(own, mostCommon, others), at: location)
        }
    }

    private static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
