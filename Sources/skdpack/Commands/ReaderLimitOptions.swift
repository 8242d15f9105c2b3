import ArgumentParser
import HLS

/// The limits on what one playlist may hold, for every command that reads playlists. Past a limit the
/// reader stops with an error at the line where it was crossed; `apply` then leaves the playlist as it was.
struct ReaderLimitOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The longest line read; a longer line is passed through as it is and reported.",
            valueName: "SIZE"))
    var maxLineLength = ByteCount(LineReader.defaultMaximumLineLength)

    @Option(
        help: ArgumentHelp(
            "The largest playlist read; reading stops with an error at the line that goes past it.",
            valueName: "SIZE"))
    var maxPlaylistSize = ByteCount(ReaderOptions.defaultMaximumPlaylistSize)

    @Option(
        help: ArgumentHelp(
            "The most segments a playlist may have; reading stops with an error at the next one.",
            valueName: "COUNT"))
    var maxSegments = ReaderOptions.defaultMaximumSegmentCount

    /// `options` with these limits.
    func applied(to options: ReaderOptions) throws -> ReaderOptions {
        try Self.applied(to: options, lineLength: maxLineLength.bytes, playlistSize: maxPlaylistSize.bytes, segments: maxSegments)
    }

    /// `options` with the limits given, checked.
    static func applied(to options: ReaderOptions, lineLength: Int, playlistSize: Int, segments: Int) throws -> ReaderOptions {
        guard segments >= 0 else { throw UsageFailure("--max-segments must be 0 or more") }
        var options = options
        options.maximumLineLength = lineLength
        options.maximumPlaylistSize = playlistSize
        options.maximumSegmentCount = segments
        return options
    }
}

/// A number of bytes as typed on the command line: `1048576`, `512K`, `64M`, `1G` (powers of 1024).
struct ByteCount: ExpressibleByArgument, Sendable {
    var bytes: Int

    init(_ bytes: Int) { self.bytes = bytes }

    init?(argument: String) {
        let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        var digits = Substring(argument)
        var multiplier = 1
        if let last = argument.last?.uppercased().first, let unit = units[last] {
            multiplier = unit
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let value = Int(digits), value > 0 else { return nil }
        let (bytes, overflow) = value.multipliedReportingOverflow(by: multiplier)
        guard !overflow else { return nil }
        self.bytes = bytes
    }

    var defaultValueDescription: String {
        for (suffix, unit) in [("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)] where bytes % unit == 0 {
            return "\(bytes / unit)\(suffix)"
        }
        return String(bytes)
    }
}
