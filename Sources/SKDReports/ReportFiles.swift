import Glibc
import HLS
import SKDBytes
import SKDFiles
import SKDReportModel

/// The reports of a run, as a ``ReportSink``: files (`apply --report`, each appearing whole or not at all,
/// a temporary file renamed into place) or a stream the caller owns (`validate --format json` to standard
/// output). JSON and XML are written as the playlists come, so a library's report costs no memory of its
/// own; JUnit and SARIF, whose headers count what follows, are built at the end.
public final class ReportFiles: ReportSink {
    /// Where a report goes.
    public enum Target: Sendable {
        /// A file, made whole (its folder made if need be).
        case file(String)
        /// An open file descriptor the caller owns, named in errors.
        case stream(fd: Int32, name: String)
    }

    private enum Writer {
        case streaming(ReportStream)
        case whole(ReportFormat)
    }

    private struct Output {
        let file: AtomicFile?
        let fd: Int32
        let name: String
        let writer: Writer
        /// Bytes not yet written: one write per 256 KiB, not one per playlist (a library's worth of small
        /// writes costs more than the report).
        var pending: [UInt8] = []
    }

    private var outputs: [Output] = []
    private static let writeSize = 256 << 10
    private let tool: Report.Tool
    /// The tool's kinds of finding, which SARIF describes.
    private let rules: [DiagnosticKind]
    private var summary = Report.Summary()
    /// Kept only for the formats written whole.
    private var playlists: [Report.Playlist] = []
    private let keepsPlaylists: Bool

    /// Opens every report asked for, before the run touches anything: a report that cannot be written
    /// stops it first. `rules`: the tool's kinds of finding, which SARIF describes.
    public init(_ requested: [(target: Target, format: ReportFormat)], tool: Report.Tool, rules: [DiagnosticKind]) throws {
        self.tool = tool
        self.rules = rules
        keepsPlaylists = requested.contains { $0.format == .junit || $0.format == .sarif }
        for (target, format) in requested {
            let writer: Writer =
                switch format {
                case .json: .streaming(ReportJSONStream(tool: tool))
                case .xml: .streaming(try ReportXMLStream(tool: tool))
                case .html: .streaming(HTMLReportStream(tool: tool))
                case .junit, .sarif: .whole(format)
                }
            let output: Output
            switch target {
            case .file(let path):
                // A report into a folder that does not exist yet makes it, before the run touches anything.
                try AtomicFile.makeDirectories(AtomicFile.directory(of: path))
                let file = try AtomicFile(target: path)
                output = Output(file: file, fd: file.fd, name: path, writer: writer)
            case .stream(let fd, let name):
                output = Output(file: nil, fd: fd, name: name, writer: writer)
            }
            if case .streaming(let stream) = writer { try Self.write(try stream.start(), to: output) }
            outputs.append(output)
        }
    }

    public func add(_ playlist: Report.Playlist) throws {
        summary.add(playlist)
        if keepsPlaylists { playlists.append(playlist) }
        for index in outputs.indices {
            guard case .streaming(let stream) = outputs[index].writer else { continue }
            outputs[index].pending += try stream.add(playlist)
            if outputs[index].pending.count >= Self.writeSize {
                try Self.write(outputs[index].pending, to: outputs[index])
                outputs[index].pending.removeAll(keepingCapacity: true)
            }
        }
    }

    public func finish(run: Report.Run) throws {
        let whole = keepsPlaylists ? Report(tool: tool, run: run, playlists: playlists) : nil
        for output in outputs {
            switch output.writer {
            case .streaming(let stream): try Self.write(output.pending + (try stream.finish(run: run, summary: summary)), to: output)
            case .whole(let format): try Self.write(try format.encode(whole!, rules: rules), to: output)
            }
            try output.file?.commit()
        }
    }

    public func discard() {
        for output in outputs { output.file?.discard() }
    }

    private static func write(_ bytes: [UInt8], to output: Output) throws {
        if let code = bytes.withUnsafeBytes({ SystemCall.writeAll(output.fd, $0) }) {
            throw IOError(path: output.name, operation: "write the report", errno: code)
        }
    }
}
