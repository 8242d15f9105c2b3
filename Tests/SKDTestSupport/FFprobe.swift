import Foundation

/// ffprobe (Debian's ffmpeg, installed by scripts/test), the reference the media segment readers are
/// held to: what it reports of each packet and stream.
public enum FFprobe {
    /// The ffprobe on PATH, or `nil` (tests that need it skip, saying so).
    public static let executable: URL? = {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("ffprobe")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }()

    public static let skipReason = "ffprobe not found (Debian's ffmpeg; scripts/test installs it): the tests against it skip"

    /// One packet: its stream, decode time and duration (in the stream's time base), and whether it is a
    /// key frame.
    public struct Packet: Sendable {
        public var stream: Int
        public var dts: Int64?
        public var duration: Int64?
        public var isKey: Bool
    }

    /// The packets of the media in `file`.
    public static func packets(_ file: URL) throws -> [Packet] {
        let text = try run(["-v", "error", "-show_entries", "packet=stream_index,dts,duration,flags", "-of", "csv=p=0", file.path])
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 4, let stream = Int(fields[0]) else { return nil }
            return Packet(stream: stream, dts: Int64(fields[1]), duration: Int64(fields[2]), isKey: fields[3].hasPrefix("K"))
        }
    }

    /// Each stream's fields `entries` (`codec_name`, `width`…), by name.
    public static func streams(_ file: URL, entries: [String]) throws -> [[String: String]] {
        // Streams only (a transport stream's programs list their streams again).
        let text = try run([
            "-v", "error", "-show_entries", "stream=" + entries.joined(separator: ","), "-of", "compact", "-show_programs", "-show_streams",
            file.path,
        ])
        let lines = text.split(separator: "\n").filter { $0.hasPrefix("stream|") }
        var seen: Set<Substring> = []
        return lines.filter { seen.insert($0).inserted }.map { line in
            var fields: [String: String] = [:]
            for pair in line.split(separator: "|").dropFirst() {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                if parts.count == 2 { fields[parts[0]] = parts[1] }
            }
            return fields
        }
    }

    /// The file's format duration in seconds.
    public static func duration(_ file: URL) throws -> Double? {
        Double(
            try run(["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file.path]).trimmingCharacters(
                in: .whitespacesAndNewlines))
    }

    private static func run(_ arguments: [String]) throws -> String {
        try SKDPackRunner.run(arguments, program: executable!).stdoutText
    }
}
