import HLS

/// RFC 8216 4.3.4.3: the playlist an EXT-X-I-FRAME-STREAM-INF names "MUST contain an EXT-X-I-FRAMES-ONLY
/// tag": without it a player scrubbing through I-frames reads whole segments as if they were I-frames.
enum IFramePlaylistRule {
    static let kind = DiagnosticKind(
        id: "PKG-iframe-playlist", severity: .error,
        summary: "A media playlist named by EXT-X-I-FRAME-STREAM-INF lacks EXT-X-I-FRAMES-ONLY.",
        specSection: "4.3.4.3")

    static func check(_ package: PackageContents) -> [Diagnostic] {
        package.media.filter { package.iFramePlaylists.contains($0.path) && $0.kind == .media && !$0.presentation.isIFramesOnly }
            .map { playlist in
                kind(
                    "the master names this playlist in an EXT-X-I-FRAME-STREAM-INF, but it has no EXT-X-I-FRAMES-ONLY; add it, or list the playlist as a variant",
                    at: SourceLocation(path: playlist.path, line: 1, column: 1, offset: 0))
            }
    }
}
