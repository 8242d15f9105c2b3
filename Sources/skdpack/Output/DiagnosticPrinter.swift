import Glibc
import HLS

/// Prints diagnostics to standard error as `path:line:col: severity: message [ID]`, coloured when standard
/// error is a terminal and `NO_COLOR` is not set (https://no-color.org).
final class DiagnosticPrinter {
    private var sink = OutputSink(fd: 2, path: "<stderr>")
    private let colour: Bool

    init() {
        colour = isatty(2) == 1 && getenv("NO_COLOR") == nil
    }

    func print(_ diagnostic: Diagnostic) {
        var text = "\(diagnostic.location): "
        text += colour ? styled(diagnostic.severity) : "\(diagnostic.severity.rawValue):"
        text += " \(diagnostic.message) [\(diagnostic.id)]\n"
        try? sink.write(text)
    }

    func print(message: String) {
        try? sink.write(message + "\n")
    }

    func flush() { try? sink.flush() }

    private func styled(_ severity: Severity) -> String {
        let code =
            switch severity {
            case .error: "1;31"
            case .warning: "1;33"
            case .info: "1;36"
            }
        return "\u{1B}[\(code)m\(severity.rawValue):\u{1B}[0m"
    }
}
