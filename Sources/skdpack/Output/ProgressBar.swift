import Glibc

/// `[=========>          ] 1200/2100 playlists  850/s  ETA 1s` on standard error while a library is
/// worked through: only on a terminal, redrawn at most ten times a second, and cleared before findings
/// are printed so that they stay on lines of their own.
final class ProgressBar {
    private let total: Int
    private let enabled: Bool
    private let printer: DiagnosticPrinter
    private var done = 0
    private let start = ProgressBar.now()
    private var lastDraw = 0.0
    private var drawn = false

    init(total: Int, enabled: Bool, printer: DiagnosticPrinter) {
        self.total = total
        self.enabled = enabled && total > 1 && isatty(2) == 1
        self.printer = printer
    }

    /// `playlists` more are done.
    func advance(by playlists: Int) {
        done += playlists
        guard enabled else { return }
        let now = Self.now()
        guard now - lastDraw >= 0.1 || done >= total else { return }
        lastDraw = now
        clear()
        printer.flush()
        let elapsed = max(now - start, 0.001)
        let rate = Double(done) / elapsed
        let remaining = rate > 0 ? Double(total - done) / rate : 0
        let width = 24
        let filled = total > 0 ? min(width, done * width / total) : width
        let bar =
            String(repeating: "=", count: filled) + (filled < width ? ">" : "")
            + String(repeating: " ", count: max(0, width - filled - 1))
        Self.write("[\(bar)] \(done)/\(total) playlists  \(Int(rate))/s  ETA \(Int(remaining.rounded(.up)))s")
        drawn = true
    }

    /// Removes the bar, for the summary line.
    func finish() {
        guard enabled else { return }
        clear()
        printer.flush()
    }

    private func clear() {
        guard drawn else { return }
        Self.write("\r\u{1B}[K")
        drawn = false
    }

    private static func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in _ = Glibc.write(2, bytes.baseAddress, bytes.count) }
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
