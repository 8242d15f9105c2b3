import SKDPack

extension SettingNames {
    /// The flags of `skdpack`'s command line, for the library's messages.
    static let commandLine: SettingNames = {
        var names = SettingNames(
            values: "--var", match: "--match", pathPattern: "--path-pattern", assumeEncrypted: "--assume-encrypted",
            followSymlinks: "--follow-symlinks")
        names.cpix = "--cpix"
        names.valueFiles = "--var-file"
        names.sessionKeys = "--session-keys"
        names.root = "--root DIR"
        names.kidFromMedia = "--kid-from media"
        names.allowSharedContentID = "--allow-shared-content-id"
        names.destinations = "--in-place, --output DIR, --check or --diff"
        names.elsewhere = "--output DIR or standard output"
        return names
    }()
}
