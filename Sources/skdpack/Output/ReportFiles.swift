import Glibc
import HLS
import SKDPack
import SKDReports

/// The report files of an `apply --report` run. JSON and XML are written as the playlists come, so a
/// library's report costs no memory of its own; JUnit and SARIF, whose headers count what follows, are
/// built at the end. Each file appears whole or not at all (a temporary file renamed into place).
final class ReportFiles {
    private enum Writer {
        case streaming(ReportStream)
        case whole(ReportFormat)
    }

    private var files: [(file: AtomicFile, writer: Writer)] = []
    /// Bytes of each streaming file not yet written: one write per 256 KiB, not one per playlist (a
    /// library's worth of small writes costs more than the report).
    private var pending: [[UInt8]] = []
    private static let writeSize = 256 << 10
    private let tool: Report.Tool
    private var summary = Report.Summary()
    /// Kept only for the formats written whole.
    private var playlists: [Report.Playlist] = []
    private let keepsPlaylists: Bool

    init(_ requested: [(path: String, format: ReportFormat)], tool: Report.Tool) throws {
        self.tool = tool
        keepsPlaylists = requested.contains { $0.format == .junit || $0.format == .sarif }
        for (path, format) in requested {
            // A report into a folder that does not exist yet makes it, before the run touches anything.
            try AtomicFile.makeDirectories(AtomicFile.directory(of: path))
            let file = try AtomicFile(target: path)
            let writer: Writer =
                switch format {
                case .json: .streaming(ReportJSONStream(tool: tool))
                case .xml: .streaming(try ReportXMLStream(tool: tool))
                case .junit, .sarif: .whole(format)
                }
            files.append((file, writer))
            pending.append([])
            if case .streaming(let stream) = writer { try Self.write(try stream.start(), to: file) }
        }
    }

    /// One playlist, in report order.
    func add(_ playlist: Report.Playlist) throws {
        summary.add(playlist)
        if keepsPlaylists { playlists.append(playlist) }
        for (index, (file, writer)) in files.enumerated() {
            guard case .streaming(let stream) = writer else { continue }
            pending[index] += try stream.add(playlist)
            if pending[index].count >= Self.writeSize {
                try Self.write(pending[index], to: file)
                pending[index].removeAll(keepingCapacity: true)
            }
        }
    }

    /// Ends every file and puts it in place.
    func finish(run: Report.Run) throws {
        let whole = keepsPlaylists ? Report(tool: tool, run: run, playlists: playlists) : nil
        for (index, (file, writer)) in files.enumerated() {
            switch writer {
            case .streaming(let stream): try Self.write(pending[index] + (try stream.finish(run: run, summary: summary)), to: file)
            case .whole(let format): try Self.write(try format.encode(whole!), to: file)
            }
            try file.commit()
        }
    }

    /// Removes the temporary files of a run that could not finish.
    func discard() {
        for (file, _) in files { file.discard() }
    }

    private static func write(_ bytes: [UInt8], to file: AtomicFile) throws {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { Glibc.write(file.fd, $0.baseAddress! + written, bytes.count - written) }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { throw IOError(path: file.target, operation: "write the report", errno: errno) }
            written += result
        }
    }
}
