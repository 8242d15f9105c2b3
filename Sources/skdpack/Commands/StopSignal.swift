import Glibc
import Synchronization

/// SIGINT and SIGTERM during a library run: the packages in flight are finished (each file is replaced
/// whole or not at all anyway), no new one is started, the summary and the reports cover what was done,
/// and the exit status is 128 + the signal, as a shell expects.
enum StopSignal {
    private static let received = Atomic<Int32>(0)

    /// Catches SIGINT and SIGTERM from now on.
    static func install() {
        var action = sigaction()
        // The handler only stores the signal: an atomic store is safe in a signal handler.
        action.__sigaction_handler.sa_handler = { signal in StopSignal.received.store(signal, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        sigaction(SIGINT, &action, nil)
        sigaction(SIGTERM, &action, nil)
        // A parent may hand the signals down blocked (some process launchers do); handled, they are wanted.
        var handled = sigset_t()
        sigemptyset(&handled)
        sigaddset(&handled, SIGINT)
        sigaddset(&handled, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
    }

    /// The signal received, if one was.
    static var requested: Int32? {
        let signal = received.load(ordering: .relaxed)
        return signal == 0 ? nil : signal
    }

    /// After a stopped run: says so and exits 128 + the signal.
    static func exitIfRequested(done: Int, of total: Int, printer: DiagnosticPrinter) {
        guard let signal = requested else { return }
        let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
        printer.print(error: "stopped by \(name) after \(done) of \(total) playlists; the others were not touched")
        printer.flush()
        exit(128 + signal)
    }
}
