import ArgumentParser
import FoundationEssentials
import Glibc
import HLS
import MP4
import SKDKeys
import SKDPack
import SKDReports
import SKDTemplate
import SKDValidation

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check playlists before they are published: HLS grammar, keys, and FairPlay key lines.",
        discussion: """
            Every playlist given, or found under a directory given, is read in one streaming pass; each \
            finding is printed as path:line:col: severity: message [RULE] with the line and a caret. \
            `skdpack rules` lists the rules. Exit status: 0 no errors, 1 errors found, 2 an input could not \
            be read (or held no playlist), or the command is wrong (an unknown rule, a template, value, catalogue \
            or CPIX document that cannot be used).

            Key truth: --media reads each init segment EXT-X-MAP names (once per file) and checks the keys \
            against it (MEDIA rules: cbcs for FairPlay, the KID a key names against the default KID, clear \
            against encrypted); --cpix checks each FairPlay key against the key server's document for its \
            track (from the master) and key period (CPIX rules). --segments (implies --media) reads every local \
            media segment, fMP4 or MPEG-TS, from its boxes or its two ends (never its sample data), and checks \
            what the playlist says of it (SEG rules): encryption and key ids, duration against EXTINF and the \
            target duration, a sync sample at the start, timestamps running on between segments.

            Examples:
              skdpack validate examples/library
              skdpack validate --disable FPS-iv --warnings-as-errors \\
                  examples/library/multi-drm-title/master.m3u8
              skdpack validate --format junit examples/library/ > validate.junit.xml
              skdpack validate --shard 2/8 --format json examples/library/ > shard-2.json
              skdpack validate --template entitlement-rotation \\
                  --var entitlement_url=https://new-lic.example.com/fps \\
                  --allow-host new-lic.example.com examples/library/
              skdpack validate --media --cpix examples/key-truth/keys.xml \\
                  examples/key-truth/title/
              skdpack validate --segments examples/segments/
            """
    )

    /// What standard output gets: findings for people, or a report in any of the report formats (the list
    /// is `ReportFormat`'s: a format added there is a `--format` here).
    enum Format: ExpressibleByArgument, Equatable {
        case human
        case report(ReportFormat)

        init?(argument: String) {
            if argument == "human" {
                self = .human
            } else if let format = ReportFormat(rawValue: argument) {
                self = .report(format)
            } else {
                return nil
            }
        }

        static var allValueStrings: [String] { ["human"] + ReportFormat.allCases.map(\.rawValue) }
        static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
        var defaultValueDescription: String { "human" }
    }

    @Argument(help: "Playlists, directories of playlists, or - for standard input.")
    var paths: [String] = []

    @Option(help: "Output format: human, or the report in that format (schemas from `skdpack report schema`).")
    var format: Format = .human

    @Option(help: ArgumentHelp(ReportOptions.help, valueName: "FILE"), completion: Completions.reportFile)
    var report: [String] = []

    @Option(
        name: .customLong("disable"), help: ArgumentHelp("Turn off a rule (repeatable).", valueName: "RULE"),
        completion: Completions.validationRule)
    var disabledRules: [String] = []

    @Flag(help: "Count warnings as errors (and fail on them).")
    var warningsAsErrors = false

    @Option(help: "The longest FairPlay key URI accepted, in bytes (FPS-uri-length).")
    var maxURILength = ValidationOptions().maximumURILength

    @Option(
        help: "Check that every FairPlay key is one this template makes (a shipped name, a file, or an skd:// template).",
        completion: Completions.template)
    var template: String?

    @Option(
        name: .customLong("var"),
        help: ArgumentHelp("With --template: a value the keys must have been made with (repeatable).", valueName: "NAME=VALUE"))
    var variables: [String] = []

    @Option(
        name: .customLong("var-file"),
        help: ArgumentHelp(
            "With --template: as --var, the value a file's text, one final newline dropped (a secret kept off the command line).",
            valueName: "NAME=FILE"))
    var variableFiles: [String] = []

    @Option(
        help: ArgumentHelp(
            "With --template: each title's values from a CSV (header row) or JSON file; a key must carry its own title's.",
            valueName: "FILE"),
        completion: .file(extensions: ["csv", "json"]))
    var catalog: String?

    @Option(
        help: ArgumentHelp(
            "With --template: named groups of this regular expression, matched on each playlist's path, are the values its keys must carry.",
            valueName: "REGEX"))
    var pathPattern: String?

    @Option(
        name: .customLong("allow-host"),
        help: ArgumentHelp(
            "A host the derived https license URLs may point at (repeatable; *.example.com for subdomains).", valueName: "HOST"))
    var allowHosts: [String] = []

    @Flag(help: "Follow symbolic links to playlists and directories.")
    var followSymlinks = false

    @Option(
        help: ArgumentHelp(
            "The web server's document root on this disk: where masters' root-relative references (/vod/…) are read.",
            valueName: "DIR"))
    var root: String?

    @Flag(help: "Read the init segments EXT-X-MAP names and check the keys against them (MEDIA rules): scheme, KID, encryption.")
    var media = false

    @Flag(
        help: "Read every local media segment (fMP4 or MPEG-TS; implies --media) and check what the playlist says of it (SEG rules).")
    var segments = false

    @Option(
        help: ArgumentHelp(
            "Check FairPlay keys against a CPIX document from the key server (CPIX rules; repeatable; a directory of them).",
            valueName: "FILE"))
    var cpix: [String] = []

    @Option(help: ArgumentHelp("The largest init segment read (K, M, G suffixes).", valueName: "SIZE"))
    var maxInitSize = ByteCount(InitSegmentFile.defaultLimit)

    @OptionGroup var library: LibraryOptions

    @OptionGroup(title: "Limits") var limits: ReaderLimitOptions

    /// What ArgumentParser parsed, as the settings ``ValidateFastPath`` reads from a plain line (a test holds
    /// the two to the same settings).
    var settings: ValidateSettings {
        var request = ValidateRequest()
        (request.disabledRules, request.warningsAsErrors, request.maximumURILength, request.template) =
            (disabledRules, warningsAsErrors, maxURILength, template)
        request.values = ValuesRequest(values: variables, valueFiles: variableFiles, catalog: catalog, pathPattern: pathPattern)
        (request.allowHosts, request.media, request.segments, request.cpix, request.maximumInitSize) =
            (allowHosts, media, segments, cpix, maxInitSize.bytes)
        return ValidateSettings(
            paths: paths, format: format, reports: report, request: request,
            input: InputSettings(followSymlinks: followSymlinks, root: root, library, limits))
    }

    func run() throws { try settings.run() }
}
