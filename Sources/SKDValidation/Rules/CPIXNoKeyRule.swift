import HLS
import SKDKeys

/// Every FairPlay key period must have exactly one key in the key server's document for the playlist's
/// track: none (no rule selects it) or two (rules overlap) is a document the packager cannot follow.
struct CPIXNoKeyRule: ValidationRule {
    static let kind = KeyTruthDiagnostics.noKeyTruth

    static let tags: Set<TagName>? = []
    static let keyTruth: KeyTruthSource? = .cpix

    /// A problem of the whole playlist (no document for it, its track unknown) is said once, at its
    /// first key, not at every period.
    private var reported: Set<String> = []

    mutating func segment(at line: PlaylistLine, in context: RuleContext) {
        guard let truth = context.keyTruth, truth.checksCPIX, let key = truth.period(context).fairPlay,
            case .failure(let problem)? = truth.cpixKey(forKeyOn: key.line, naming: key.keyID),
            reported.insert(problem.message).inserted
        else { return }
        context.report(Self.kind, problem.message, onLine: key.line)
    }
}
