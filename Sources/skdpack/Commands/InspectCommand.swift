import ArgumentParser
import FoundationEssentials
import MP4
import SKDPack

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

    @Option(help: ArgumentHelp("The largest init segment read (K, M, G suffixes).", valueName: "SIZE"))
    var maxInitSize = ByteCount(InitSegmentFile.defaultLimit)

    @OptionGroup(title: "Limits") var limits: ReaderLimitOptions

    func run() throws {
        var request = InspectRequest(path: path)
        (request.initSegment, request.media, request.maximumInitSize) = (`init`, media, maxInitSize.bytes)
        try reportingUsage { request.reader = try limits.applied(to: request.reader) }
        let printer = DiagnosticPrinter()
        defer { printer.flush() }
        let result: InspectRun.Result
        do {
            result = try InspectRun.run(request)
        } catch {
            printer.print(error: "\(error)")
            throw ExitStatus.failure
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            let json = try result.text { String(decoding: try encoder.encode($0), as: UTF8.self) + "\n" }
            try StandardStreams.output(json)
        } catch let status as ExitCode {
            throw status
        } catch {
            printer.print(error: "\(error)")
            throw ExitStatus.failure
        }
        if result.hasErrors { throw ExitStatus.findings }
    }
}
