import HLS
import MP4

/// What an `apply` run is asked to do, as plain values: read from the command line's words by
/// ``ApplyFastPath``'s table (whether ArgumentParser has checked them first or not), and run the same way.
struct ApplySettings: Equatable {
    var template: String
    var variables: [String] = []
    var variableFiles: [String] = []
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
    var input = InputSettings()
    var reports: [String] = []
    var cpix: [String] = []
    var kidFrom: String?
    var maxInitSize = InitSegmentFile.defaultLimit
    var disabledRules: [String] = []
    var lockWait: Double = 30
    var validate = false
}
