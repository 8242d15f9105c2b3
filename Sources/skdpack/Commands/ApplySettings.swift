import HLS
import MP4

/// What an `apply` run is asked to do, as plain values: made from ArgumentParser's `ApplyCommand`, or
/// directly by ``ApplyFastPath``, and run the same way either way.
struct ApplySettings: Equatable {
    var template: String
    var variables: [String] = []
    var catalog: String?
    var pathPattern: String?
    var match: String?
    var paths: [String] = []
    var inPlace = false
    var output: String?
    var check = false
    var diff = false
    var assumeEncrypted = false
    var sessionKeys = false
    var allowSharedContentID = false
    var followSymlinks = false
    var jobs: Int?
    var shard: String?
    var noProgress = false
    var maxLineLength = LineReader.defaultMaximumLineLength
    var maxPlaylistSize = ReaderOptions.defaultMaximumPlaylistSize
    var maxSegments = ReaderOptions.defaultMaximumSegmentCount
    var reports: [String] = []
    var cpix: [String] = []
    var kidFrom: String?
    var maxInitSize = InitSegmentFile.defaultLimit
    var disabledRules: [String] = []
    var lockWait: Double = 30
    var validate = false
}

extension ApplySettings {
    /// The settings ArgumentParser parsed.
    init(_ command: ApplyCommand) {
        self.init(
            template: command.templateOptions.template, variables: command.templateOptions.variables,
            catalog: command.templateOptions.catalog, pathPattern: command.templateOptions.pathPattern,
            match: command.templateOptions.match, paths: command.paths, inPlace: command.inPlace,
            output: command.output, check: command.check, diff: command.diff,
            assumeEncrypted: command.assumeEncrypted, sessionKeys: command.sessionKeys,
            allowSharedContentID: command.allowSharedContentID, followSymlinks: command.followSymlinks, jobs: command.library.jobs,
            shard: command.library.shard,
            noProgress: command.library.noProgress, maxLineLength: command.limits.maxLineLength.bytes,
            maxPlaylistSize: command.limits.maxPlaylistSize.bytes, maxSegments: command.limits.maxSegments,
            reports: command.report, cpix: command.cpix, kidFrom: command.kidFrom, maxInitSize: command.maxInitSize.bytes,
            disabledRules: command.disabledRules, lockWait: command.lockWait, validate: command.validate)
    }
}
