import HLS
import MP4
import SKDKeys

/// The keys in force at the first segment of a key period, as the `MEDIA` and `CPIX` rules look at them:
/// built once per period (``KeyTruthContext/period(_:)``) for all of them.
struct KeyPeriodView {
    struct Key {
        var attributes: AttributeList
        var line: Int
        var method: String
        var isFairPlay: Bool
        /// The key id it names: KEYID, or the one in a FairPlay URI.
        var keyID: KeyID?
        /// The methods that encrypt samples inside fMP4, so that the init segment says so (AES-128
        /// encrypts whole segments and leaves the init segment clear).
        var encryptsSamples: Bool { method == "SAMPLE-AES" || method == "SAMPLE-AES-CTR" }
    }

    let keys: [Key]

    init(_ context: RuleContext) {
        keys = context.reader.keyAttributesInForce.map { attributes, line in
            Key(
                attributes: attributes, line: line, method: attributes["METHOD"]?.text ?? "", isFairPlay: KeyLine.isFairPlay(attributes),
                keyID: KeyIDInURI.named(by: attributes, variables: context.reader.variables))
        }
    }

    /// Keys that encrypt (METHOD other than NONE).
    var encrypting: [Key] { keys.filter { !$0.method.isEmpty && $0.method != "NONE" } }
    /// The FairPlay key of the period.
    var fairPlay: Key? { keys.first(where: \.isFairPlay) }
}

extension RuleContext {
    /// Reports a finding on the line of a key (or a map) read earlier.
    func report(_ kind: DiagnosticKind, _ message: String, onLine line: Int) {
        report(kind, message, at: SourceLocation(path: path, line: line, column: 1, offset: 0))
    }
}
