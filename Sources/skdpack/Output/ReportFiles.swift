import Glibc
import HLS
import SKDPack

/// Writes report files: each one whole or not at all (a temporary file renamed into place), so a CI step
/// never reads half a report.
enum ReportFiles {
    static func write(_ report: Report, to files: [(path: String, format: ReportFormat)]) throws {
        for (path, format) in files {
            let bytes = try format.encode(report)
            let file = try AtomicFile(target: path)
            var written = 0
            while written < bytes.count {
                let result = bytes.withUnsafeBytes { Glibc.write(file.fd, $0.baseAddress! + written, bytes.count - written) }
                if result < 0, errno == EINTR { continue }
                guard result > 0 else {
                    file.discard()
                    throw IOError(path: path, operation: "write the report", errno: errno)
                }
                written += result
            }
            try file.commit()
        }
    }
}
