import HLS
import MP4
import MPEGTS
import SKDFiles
import SKDKeys
import SKDTemplate
import SKDValidation

/// What an `inspect` run is asked to show, as plain values.
public struct InspectRequest: Sendable, Equatable {
    /// A playlist (`-`: standard input), an init segment, or a media segment (told apart by their bytes).
    public var path: String
    /// The init segment of the fMP4 media segment inspected: its timescales, sample entries and encryption.
    public var initSegment: String?
    /// Also read the init segments the playlist's EXT-X-MAP tags name (local files only).
    public var media = false
    /// The most an init segment is read of.
    public var maximumInitSize = InitSegmentFile.defaultLimit
    /// The reader's limits.
    public var reader = ReaderOptions()

    public init(path: String) { self.path = path }
}

/// The `inspect` use case: the typed view of a playlist (with its title's key map, and with `media` the
/// protection of the init segments it names), of an init segment's protection, or of what was read of a
/// media segment. It judges nothing beyond what the reader finds; the caller prints ``shown``.
public enum InspectRun {
    public struct Result: Sendable {
        /// What is shown: a playlist's inspection, an init segment's protection or a media segment's summary.
        private let shown: any Encodable & Sendable
        /// What hides the secrets of what is shown (a token in a key URI, as everywhere).
        private let redaction: Redaction
        /// Whether the reader found an error in the playlist, or an init segment it names could not be read.
        public let hasErrors: Bool

        init(shown: any Encodable & Sendable, redaction: Redaction, hasErrors: Bool) {
            (self.shown, self.redaction, self.hasErrors) = (shown, redaction, hasErrors)
        }

        /// What is shown, as `encode` writes it (JSON, say), its secrets hidden: there is no other way to it.
        public func text(_ encode: (any Encodable) throws -> String) rethrows -> Redacted {
            redaction.redacted(try encode(shown))
        }
    }

    /// What `request` shows; throws what stops the reading of its file (not there, not a playlist or a segment).
    public static func run(_ request: InspectRequest) throws -> Result {
        let path = request.path
        if path != "-",
            InitSegmentSniffer.looksLikeMP4(path) || InitSegmentSniffer.looksLikeTransportStream(path) || request.initSegment != nil
        {
            return Result(shown: try segment(request), redaction: .none, hasErrors: false)
        }
        let reader = PlaylistReader(source: try FileDescriptorSource.open(path: path), path: path, options: request.reader)
        let inspection = try PlaylistInspector.inspect(reader)
        let initSegments =
            request.media ? InitSegmentEntry.all(in: inspection, store: InitSegmentStore(limit: request.maximumInitSize)) : nil
        // The title's key map: of a master and the playlists it lists, or of a media playlist alone.
        var validation = ValidationOptions()
        validation.reader = request.reader
        let keyMap = path == "-" ? nil : TitleKeyMap.read(path, options: validation)
        let hasErrors =
            inspection.diagnostics.contains { $0.severity == .error } || initSegments?.contains { $0.error != nil } == true
        return Result(
            shown: PlaylistView(inspection: inspection, initSegments: initSegments, keyMap: keyMap), redaction: inspection.keyURISecrets,
            hasErrors: hasErrors)
    }

    /// A file with a `moov` is shown as an init segment (its fragments, if it has any, with an init segment
    /// given for them); one without, as a media segment: fMP4 with the init segment's timescales and sample
    /// entries (or its own `moov`), MPEG-TS.
    private static func segment(_ request: InspectRequest) throws -> any Encodable & Sendable {
        let path = request.path
        if InitSegmentSniffer.looksLikeTransportStream(path) { return MediaSegmentSummary(try TransportSegmentFile.read(path)) }
        let boxes = try MediaSegmentFile.read(path).topLevelBoxes
        guard !boxes.contains("moov") || request.initSegment != nil else {
            return InitSegmentSummary(try InitSegmentFile.read(path, limit: request.maximumInitSize))
        }
        let initSegment = try request.initSegment.map { try InitSegmentFile.read($0, limit: request.maximumInitSize) }
        return MediaSegmentSummary(try MediaSegmentFile.read(path, defaults: initSegment?.fragmentDefaults ?? []), initSegment: initSegment)
    }
}

/// A playlist's inspection, with the init segments of its EXT-X-MAP tags when asked and its title's key
/// map: the same top-level object as the inspection's, a key more for each.
private struct PlaylistView: Encodable, Sendable {
    var inspection: PlaylistInspection
    var initSegments: [InitSegmentEntry]?
    var keyMap: TitleKeyMap?

    private enum CodingKeys: String, CodingKey { case initSegments, keyMap }

    func encode(to encoder: any Encoder) throws {
        try inspection.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(initSegments, forKey: .initSegments)
        try container.encodeIfPresent(keyMap, forKey: .keyMap)
    }
}

/// One distinct EXT-X-MAP of a playlist and what its init segment says, or why it could not be read.
private struct InitSegmentEntry: Encodable, Sendable {
    var line: Int
    var uri: String
    var byteRange: String?
    var file: String?
    var protection: InitSegmentSummary?
    var error: String?
    var note: String?

    static func all(in inspection: PlaylistInspection, store: InitSegmentStore) -> [InitSegmentEntry] {
        var entries: [InitSegmentEntry] = []
        var seen: Set<String> = []
        for tag in inspection.tags where tag.name == "EXT-X-MAP" {
            let attributes = Dictionary((tag.attributes ?? []).map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
            guard case .string(let uri)? = attributes["URI"] else { continue }
            var byteRange: String?
            if case .byteRange(let length, let offset)? = attributes["BYTERANGE"] {
                byteRange = "\(length)" + (offset.map { "@\($0)" } ?? "")
            }
            guard seen.insert(uri + "#" + (byteRange ?? "")).inserted else { continue }
            var entry = InitSegmentEntry(line: tag.line, uri: uri, byteRange: byteRange)
            switch store.segment(ofMap: uri, byteRange: byteRange, inPlaylistAt: inspection.path) {
            case .remote:
                entry.note = "not a local file: cannot be read here"
            case .read(let segment, let file):
                entry.file = file
                entry.protection = InitSegmentSummary(segment)
            case .failed(let failure, let file):
                entry.file = file
                entry.error = failure.description
            }
            entries.append(entry)
        }
        return entries
    }
}
