import MP4

/// The DRM systems skdpack names: their DASH-IF system ids and the KEYFORMAT each announces itself with in
/// HLS, so that an init segment's `pssh`, a CPIX `DRMSystem` and a playlist's keys can be told to be the
/// same system.
public enum ProtectionSystem {
    /// FairPlay Streaming's system id.
    public static let fairPlay = KeyID("94ce86fb-07ff-4f43-adb8-93d2fa968ca2")!
    public static let widevine = KeyID("edef8ba9-79d6-4ace-a3c8-27dcd51d21ed")!
    public static let playReady = KeyID("9a04f079-9840-4286-ab92-e65be0885f95")!
    /// W3C Common PSSH (key ids only, for any system).
    public static let common = KeyID("1077efec-c0b2-4d02-ace3-3c1e52e2fb4b")!
    public static let clearKey = KeyID("e2719d58-a985-b3c9-781a-b030af78d30e")!

    /// A name people know the system by, or `nil` for one skdpack does not know.
    public static func name(of systemID: KeyID) -> String? {
        switch systemID {
        case fairPlay: "FairPlay"
        case widevine: "Widevine"
        case playReady: "PlayReady"
        case common: "W3C Common"
        case clearKey: "ClearKey"
        default: nil
        }
    }

    /// The system a KEYFORMAT announces: `urn:uuid:<system id>` (how Widevine and most others are
    /// signaled), and the names FairPlay and PlayReady use.
    public static func systemID(ofKeyFormat keyFormat: String) -> KeyID? {
        switch keyFormat.lowercased() {
        case FairPlay.keyFormat: fairPlay
        case "com.microsoft.playready": playReady
        case let format where format.hasPrefix("urn:uuid:"): KeyID(format.dropFirst("urn:uuid:".count))
        default: nil
        }
    }
}
