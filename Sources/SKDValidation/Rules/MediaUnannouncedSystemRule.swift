import HLS
import MP4
import SKDKeys

/// A `pssh` box for a DRM system the playlist has no key for: harmless to HLS players, but often the
/// sign of a system forgotten in the playlist (or of media packaged for another delivery).
struct MediaUnannouncedSystemRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "MEDIA-pssh-unannounced", severity: .info,
        summary: "An init segment has a 'pssh' box for a DRM system no key of the playlist announces.",
        specSection: "ISO/IEC 23001-7 8.1; RFC 8216 4.3.2.4")

    static let tags: Set<TagName>? = [.key, .sessionKey]
    static let keyTruth: KeyTruthSource? = .media

    private var announced: Set<KeyID> = []
    /// Each system met in a pssh, with the map line and file where first met.
    private var met: [(system: KeyID, line: Int, file: String)] = []

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard context.keyTruth != nil, let key = context.key, !key.isClear,
            let system = ProtectionSystem.systemID(ofKeyFormat: key.keyFormat)
        else { return }
        announced.insert(system)
    }

    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        guard let truth = context.keyTruth, let map = truth.map, case .read(let segment, let file) = truth.initSegment
        else { return }
        for header in segment.protectionSystems where header.systemID != ProtectionSystem.common {
            if !met.contains(where: { $0.system == header.systemID }) { met.append((header.systemID, map.line, file)) }
        }
    }

    mutating func finish(in context: RuleContext) {
        for entry in met where !announced.contains(entry.system) {
            let name = ProtectionSystem.name(of: entry.system).map { "\($0) (\(entry.system.uuid))" } ?? entry.system.uuid
            context.report(
                Self.kind, "the init segment \(entry.file) has a pssh for \(name), and no key of this playlist announces it",
                onLine: entry.line)
        }
    }
}
