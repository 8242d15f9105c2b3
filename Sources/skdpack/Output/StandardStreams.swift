import ArgumentParser
import Glibc
import HLS
import SKDTemplate

/// The command line's own words on standard output and standard error (messages, summaries, `render`'s URI,
/// `inspect`'s and `cpix show`'s output): `Redacted` text only, so that nothing an input holds reaches a
/// terminal or a CI log without passing a redaction. The playlists `cat` and `apply` write go out through
/// their writers, and reports through theirs (whose text fields are `Redacted` too).
enum StandardStreams {
    /// Writes `text` whole to standard output; where it cannot (a full disk, a closed pipe), says so on
    /// standard error and fails the run (exit 2): the output is not what was asked for.
    static func output(_ text: Redacted) throws(ExitCode) {
        var sink = OutputSink(fd: 1, path: "<stdout>")
        do {
            try sink.write(text.text)
            try sink.flush()
        } catch {
            Self.error(Redaction.none.redacted("skdpack: \(error)\n"))
            throw ExitStatus.failure
        }
    }

    /// Writes `text` whole to standard error, unbuffered: for the few messages outside a ``DiagnosticPrinter``.
    static func error(_ text: Redacted) {
        var text = text.text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(2, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
