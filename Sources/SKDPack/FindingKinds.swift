import HLS
import SKDFiles
import SKDValidation

/// Every kind of finding skdpack makes: those of `validate` (the reader's, the rules', the package's) and
/// those of `apply`, which reports carry (SARIF with their help text) and `skdpack rules` lists.
public enum FindingKinds {
    /// In id order, each once.
    public static let all: [DiagnosticKind] = {
        var byID: [DiagnosticID: DiagnosticKind] = [:]
        for kind in RuleRegistry.validationKinds + ApplyDiagnostics.all {
            byID[kind.id] = kind
        }
        return byID.values.sorted { $0.id < $1.id }
    }()

    /// The kind with id `id`, if there is one.
    public static func kind(_ id: DiagnosticID) -> DiagnosticKind? {
        all.first { $0.id == id }
    }
}
