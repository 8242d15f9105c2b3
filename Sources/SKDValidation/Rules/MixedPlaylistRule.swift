import HLS

/// A playlist is a master playlist or a media playlist, never both: "clients MUST fail to parse any
/// Playlist that contains both a Master Playlist tag and either a Media Playlist tag or a Media Segment tag".
struct MixedPlaylistRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-mixed-playlist", severity: .error,
        summary: "A playlist holds both master playlist tags and media playlist or segment tags.",
        specSection: "4.3.4")

    private var firstMaster: (name: String, line: Int)?
    private var firstMedia: (name: String, line: Int)?
    private var reported = false

    static let watchesSegments = false

    /// A run of segments is judged up to its first URI: an EXTINF before it, or the one read on its own before
    /// the run, is the media tag that counts; the EXTINFs after it change nothing.
    mutating func segments(_ run: SegmentRun, in context: RuleContext) { replay(run, segments: 1, in: context) }

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        // A session key in a media playlist has a rule of its own (KEY-session-in-media).
        guard !reported, let name = tag.name, name != .sessionKey else { return }
        switch name.scope {
        case .masterPlaylist: if firstMaster == nil { firstMaster = (name.rawValue, line.raw.number) }
        case .mediaPlaylist, .mediaSegment: if firstMedia == nil { firstMedia = (name.rawValue, line.raw.number) }
        default: return
        }
        guard let master = firstMaster, let media = firstMedia else { return }
        reported = true
        let earlier = master.line < media.line ? master : media
        context.report(
            Self.kind,
            "#\(name.rawValue) cannot share a playlist with #\(earlier.name) (line \(earlier.line)); "
                + "split master and media playlists into separate files",
            line: line)
    }
}
