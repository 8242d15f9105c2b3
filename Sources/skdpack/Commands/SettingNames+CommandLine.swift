import SKDFiles

extension SettingNames {
    /// The flags of `skdpack`'s command line, for the library's messages: each setting's flag, here only.
    static let commandLine = SettingNames { setting in
        switch setting {
        case .values: "--var"
        case .valueFiles: "--var-file"
        case .sessionKeys: "--session-keys"
        case .match: "--match"
        case .pathPattern: "--path-pattern"
        case .assumeEncrypted: "--assume-encrypted"
        case .followSymlinks: "--follow-symlinks"
        case .exclude: "--exclude"
        case .cpix: "--cpix"
        case .kidFromMedia: "--kid-from media"
        case .destinations: "--in-place, --output DIR, --check or --diff"
        case .elsewhere: "--output DIR or standard output"
        case .root: "--root DIR"
        case .allowSharedContentID: "--allow-shared-content-id"
        case .template: "--template"
        case .catalog: "--catalog"
        case .kidFrom: "--kid-from"
        case .media: "--media"
        case .maximumInitSize: "--max-init-size"
        case .disabledRule: "--disable"
        case .ruleList: "skdpack rules"
        case .maximumURILength: "--max-uri-length"
        case .lockWait: "--lock-wait"
        case .output: "--output"
        case .inPlace: "--in-place"
        case .oldURI: "--old-uri"
        case .kid: "--kid"
        }
    }
}
