import HLS

/// What makes a key a FairPlay Streaming key, and the values FairPlay requires.
public enum FairPlay {
    /// The KEYFORMAT of FairPlay Streaming keys.
    public static let keyFormat = "com.apple.streamingkeydelivery"
    /// The only KEYFORMATVERSIONS FairPlay defines.
    public static let keyFormatVersions = "1"
    /// The only METHOD FairPlay decrypts.
    public static let method = "SAMPLE-AES"
    /// The URI scheme of FairPlay key URIs.
    public static let scheme = "skd"

    /// Whether `key` is a FairPlay key: KEYFORMAT is FairPlay's. A key with an `skd:` URI but another
    /// KEYFORMAT is not a FairPlay key (it is a finding for validation).
    public static func isFairPlayKey(_ key: KeyTag) -> Bool {
        key.hasExplicitKeyFormat && key.keyFormat == keyFormat
    }
}
