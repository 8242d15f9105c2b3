import HLS

/// The finding of a FairPlay key whose key the key truth (CPIX documents, init segments) cannot tell: made
/// by `apply`, which then writes no URI for it, and by `validate`.
public enum KeyTruthDiagnostics {
    public static let noKeyTruth = DiagnosticKind(
        id: "CPIX-no-key", severity: .error,
        summary: "No key, or more than one, is known for a FairPlay key's track and period: the CPIX document maps "
            + "none (or two) to it, or the init segment names none.",
        specSection: "CPIX 2.4: ContentKeyUsageRule (zero or one key per content key context)")
}
