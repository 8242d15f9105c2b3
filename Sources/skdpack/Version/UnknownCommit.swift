// The commit a build comes from is written by `make` into Generated/BuildCommit.swift (not committed),
// compiled with SKDPACK_BUILD_COMMIT defined; any other build has none.
#if !SKDPACK_BUILD_COMMIT
    extension SKDPackVersion {
        static let commit: String? = nil
    }
#endif
