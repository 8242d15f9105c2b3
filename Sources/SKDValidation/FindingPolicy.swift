import HLS
import SKDTemplate

/// What a run does with the findings it makes, in one place for every maker (the reader, a playlist's rules,
/// a package's rules, apply): drops those of the rules turned off (`--disable`), makes warnings errors
/// (`--warnings-as-errors`), and hides in their messages what the redaction it is given knows
/// (``applied(to:hiding:)``; apply, which keeps its findings as they come, asks ``keeps(_:)``).
public struct FindingPolicy: Sendable {
    /// The rules turned off.
    public var disabled: Set<DiagnosticID> = []
    public var warningsAsErrors = false

    public init(disabled: Set<DiagnosticID> = [], warningsAsErrors: Bool = false) {
        (self.disabled, self.warningsAsErrors) = (disabled, warningsAsErrors)
    }

    /// Whether findings of `id` are made at all.
    public func keeps(_ id: DiagnosticID) -> Bool { !disabled.contains(id) }

    /// `findings` as the run shows them: those kept, warnings errors where asked, messages redacted.
    public func applied(to findings: [Diagnostic], hiding redaction: Redaction) -> [Diagnostic] {
        findings.compactMap { finding in
            guard keeps(finding.id) else { return nil }
            var finding = finding
            if warningsAsErrors, finding.severity == .warning { finding.severity = .error }
            finding.message = redaction.redact(finding.message)
            return finding
        }
    }
}
