import Foundation
import HLS
import SKDFiles
import SKDKeys
import SKDPack
import SKDReportModel
import SKDTemplate

/// Playlists written to a fresh temporary directory, `apply` run on it with `--output`, and what came out.
struct ApplyFixture {
    let input: URL
    let output: URL
    var outcomes: [PlaylistOutcome] = []

    init(_ files: [String: String]) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("skdpack-test-\(UUID().uuidString)")
        input = root.appendingPathComponent("in")
        output = root.appendingPathComponent("out")
        for (name, text) in files {
            let url = input.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
    }

    /// Runs apply over the whole input directory as the command line does: a request (``ApplyRequest``),
    /// the plan the ``Planner`` makes of it, and the run (``ApplyRun``), whose outcomes come in report order;
    /// a request the planner refuses throws its problem (no test passes on the outcomes of a run never made). `planned: false` runs each
    /// package through the engine (``ApplyRunner``) without a plan, its playlists in the order processed: for
    /// what the engine does with values the plan refuses before (a hostile `--var`, sources a template leaves
    /// unused, a ``Catalog`` made in memory).
    @discardableResult
    mutating func apply(
        template: String, vars: [String: String] = [:], match: String? = nil, pathPattern: String? = nil,
        catalog: Catalog? = nil, catalogFile: String? = nil, assumeEncrypted: Bool = false, sessionKeys: Bool = false,
        planned: Bool = true
    ) throws -> [PlaylistOutcome] {
        guard planned else {
            let sources = VariableSources(
                commandLine: vars.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, catalog: catalog,
                pathPattern: try pathPattern.map(NamedPattern.init), match: try match.map(NamedPattern.init))
            let options = ApplyOptions(
                template: try KeyTemplate.resolve(template, in: TemplateLibrary()), variables: sources,
                assumeEncrypted: assumeEncrypted, sessionKeys: sessionKeys)
            let runner = ApplyRunner(options: options, destination: .directory(output.path))
            outcomes = PlaylistDiscovery().discover([input.path]).packages.flatMap(runner.run)
            return outcomes
        }
        precondition(catalog == nil, "a planned run reads its catalogue from a file, as the command line does: give catalogFile")
        var request = ApplyRequest(template: template)
        request.values = ValuesRequest(
            values: vars.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }, catalog: catalogFile, pathPattern: pathPattern,
            match: match)
        (request.destination, request.inputs) = (.directory(output.path), [input.path])
        (request.assumeEncrypted, request.sessionKeys) = (assumeEncrypted, sessionKeys)
        let options = try Planner.apply(request, names: SettingNames())
        let observer = Collected()
        _ = ApplyRun(options: options, library: LibraryInput(paths: request.inputs), destination: request.destination).run(
            observer: observer, report: nil
        ) {
            _ in
            Report.Run(command: "apply", arguments: [], template: Redacted(readBack: template), startedAt: "", durationMilliseconds: 0)
        }
        notes = observer.notes
        outcomes = observer.outcomes
        return outcomes
    }

    /// What the run said that is not about a playlist (a mistake in the plan).
    var notes: [String] = []

    /// An observer that keeps what it is told.
    final class Collected: ApplyObserver {
        var outcomes: [PlaylistOutcome] = []
        var notes: [String] = []
        func note(_ message: String) { notes.append(message) }
        func applied(_ outcome: PlaylistOutcome) { outcomes.append(outcome) }
        func progress(done playlists: Int, of total: Int) {}
    }

    /// The output file `name`, or `nil` if apply wrote none (the playlist had an error).
    func result(_ name: String) -> String? {
        (try? Data(contentsOf: output.appendingPathComponent(name))).map { String(decoding: $0, as: UTF8.self) }
    }

    func outcome(_ name: String) -> PlaylistOutcome? {
        outcomes.first { $0.path.hasSuffix("/" + name) }
    }

    func ids(_ name: String) -> [String] { outcome(name)?.diagnostics.map(\.id.rawValue) ?? [] }

    func remove() { try? FileManager.default.removeItem(at: input.deletingLastPathComponent()) }
}

extension String {
    /// Lines joined with LF and a final LF: how the fixtures below are written.
    static func lines(_ lines: String...) -> String { lines.joined(separator: "\n") + "\n" }
}

enum Keys {
    static let fairPlay = #"KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#
    static let widevine =
        #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="data:text/plain;base64,AAAA",KEYID=0x0123456789ABCDEF0123456789ABCDEF,KEYFORMAT="urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed",KEYFORMATVERSIONS="1""#
    static let playReady =
        #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="data:text/plain;charset=UTF-16;base64,BBBB",KEYFORMAT="com.microsoft.playready",KEYFORMATVERSIONS="1""#
    static func fairPlayKey(_ uri: String, method: String = "SAMPLE-AES") -> String {
        #"#EXT-X-KEY:METHOD=\#(method),URI="\#(uri)",\#(fairPlay)"#
    }
}
