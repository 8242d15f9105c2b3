import Glibc
import HLS
import SKDTemplate

/// Prints diagnostics to standard error as `path:line:col: severity: message [ID]`, coloured when standard
/// error is a terminal and `NO_COLOR` is not set (https://no-color.org). It prints `Redacted` text only: a
/// diagnostic passes the printer's redaction (the run's, once the command knows it) on its way out.
final class DiagnosticPrinter {
    private var sink = OutputSink(fd: 2, path: "<stderr>")
    private let colour: Bool
    /// What hides the secrets of a diagnostic's message: the run's, set when the command has read its settings.
    var redaction: Redaction

    init(redaction: Redaction = .none) {
        colour = isatty(2) == 1 && getenv("NO_COLOR") == nil
        self.redaction = redaction
    }

    func print(_ diagnostic: Diagnostic) {
        var text = "\(diagnostic.location): "
        text += diagnostic.severity.label(colour: colour)
        text += " \(redaction.redact(diagnostic.message)) [\(diagnostic.id)]\n"
        try? sink.write(text)
    }

    func print(message: Redacted) {
        try? sink.write(message.text + "\n")
    }

    /// `skdpack: ` and `message`, with the printer's redaction.
    func print(error message: String) { self.print(message: redaction.redacted("skdpack: \(message)")) }

    func flush() { try? sink.flush() }
}

extension Severity {
    /// `error:`, in bold red on a terminal (yellow for warnings, cyan for notes). An `info` finding is
    /// labelled `note:`, as the summary line counts it (and as compilers say it).
    func label(colour: Bool) -> String {
        let word = self == .info ? "note" : rawValue
        guard colour else { return "\(word):" }
        let code =
            switch self {
            case .error: "1;31"
            case .warning: "1;33"
            case .info: "1;36"
            }
        return "\u{1B}[\(code)m\(word):\u{1B}[0m"
    }
}
