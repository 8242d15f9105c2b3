import ArgumentParser
import FoundationEssentials
import HLS
import MP4
import MPEGTS
import SKDKeys
import SKDPack
import SKDTemplate
import SKDValidation

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print the typed view of a playlist, an init segment's protection, or a media segment, as JSON.",
        discussion: """
            A playlist: tags, segments with their keys, variants, findings; with --media, also the protection of \
            each init segment its EXT-X-MAP tags name (scheme, default KID, IV, pattern, pssh systems). An fMP4 \
            init segment (told by its first box): its tracks' protection and its pssh boxes. A media segment: \
            what was read of it (fMP4: each fragment's track runs, samples, decode times, senc and seig; \
            MPEG-TS: each stream's type, descriptors, timestamps, first NAL units and SPS) and what validate \
            --segments measures of it; an fMP4 fragment's times and encryption need its init segment (--init).

            Examples:
              skdpack inspect examples/library/multi-drm-title/video-720p.m3u8
              skdpack inspect examples/library/multi-drm-title/master.m3u8 \\
                  | jq '.variants[].stream.uri'
              skdpack inspect examples/key-truth/title/video-480-init.mp4
              skdpack inspect --media examples/key-truth/title/video-480.m3u8 \\
                  | jq '.initSegments'
              skdpack inspect examples/segments/segment-0.m4s \\
                  --init examples/segments/init.mp4
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case json }

    @Argument(help: "A playlist file (or - for standard input), an init segment, or a media segment.")
    var path: String

    @Option(help: ArgumentHelp("The init segment of the fMP4 media segment inspected.", valueName: "FILE"))
    var `init`: String?

    @Option(help: "Output format.")
    var format: Format = .json

    @Flag(help: "Also read the init segments the playlist's EXT-X-MAP tags name (local files only).")
    var media = false

    @Option(help: "The largest init segment read, in bytes.")
    var maxInitSize = InitSegmentFile.defaultLimit

    @OptionGroup(title: "Limits") var limits: ReaderLimitOptions

    func run() throws {
        if path != "-", InitSegmentSniffer.looksLikeMP4(path) || InitSegmentSniffer.looksLikeTransportStream(path) || `init` != nil {
            try inspectSegment()
            return
        }
        var options = ReaderOptions()
        try reportingUsage { options = try limits.applied(to: options) }
        let printer = DiagnosticPrinter()
        defer { printer.flush() }
        let inspection: PlaylistInspection
        do {
            let reader = PlaylistReader(source: try FileDescriptorSource.open(path: path), path: path, options: options)
            inspection = try PlaylistInspector.inspect(reader)
        } catch {
            printer.print(error: "\(error)")
            throw ExitStatus.failure
        }
        let initSegments = media ? InitSegmentEntry.all(in: inspection, store: InitSegmentStore(limit: maxInitSize)) : nil
        // The title's key map: of a master and the playlists it lists, or of a media playlist alone.
        var validation = ValidationOptions()
        validation.reader = options
        let keyMap = path == "-" ? nil : TitleKeyMap.read(path, options: validation)
        // A token in a key URI is a secret here as everywhere (`validate` hides it without a template too).
        try printJSON(
            InspectionOutput(inspection: inspection, initSegments: initSegments, keyMap: keyMap), printer: printer,
            redaction: inspection.keyURISecrets)
        if inspection.diagnostics.contains(where: { $0.severity == .error }) || initSegments?.contains(where: { $0.error != nil }) == true {
            throw ExitStatus.findings
        }
    }

    /// An init segment (a file with a `moov` and no `moof`), or a media segment: fMP4 with `--init`'s
    /// timescales and sample entries (or its own `moov`), MPEG-TS.
    private func inspectSegment() throws {
        let printer = DiagnosticPrinter()
        defer { printer.flush() }
        let summary: any Encodable
        do {
            summary = try segmentSummary()
        } catch {
            printer.print(error: "\(error)")
            throw ExitStatus.failure
        }
        try printJSON(summary, printer: printer)
    }

    /// A file with a `moov` is shown as an init segment (its fragments, if it has any, with `--init` naming
    /// it); one without, as a media segment.
    private func segmentSummary() throws -> any Encodable {
        if InitSegmentSniffer.looksLikeTransportStream(path) { return MediaSegmentSummary(try TransportSegmentFile.read(path)) }
        let boxes = try MediaSegmentFile.read(path).topLevelBoxes
        guard !boxes.contains("moov") || `init` != nil else {
            return InitSegmentSummary(try InitSegmentFile.read(path, limit: maxInitSize))
        }
        let initSegment = try `init`.map { try InitSegmentFile.read($0, limit: maxInitSize) }
        return MediaSegmentSummary(try MediaSegmentFile.read(path, defaults: initSegment?.fragmentDefaults ?? []), initSegment: initSegment)
    }

    private func printJSON(_ value: some Encodable, printer: DiagnosticPrinter, redaction: Redaction = .none) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            try StandardStreams.output(redaction.redacted(String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"))
        } catch let status as ExitCode {
            throw status
        } catch {
            printer.print(error: "\(error)")
            throw ExitStatus.failure
        }
    }
}

/// A playlist's inspection, with the init segments of its EXT-X-MAP tags when asked: the same top-level
/// object as without, one key more.
private struct InspectionOutput: Encodable {
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
private struct InitSegmentEntry: Encodable {
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
