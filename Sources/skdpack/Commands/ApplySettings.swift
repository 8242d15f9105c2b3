import HLS
import SKDPack

/// What an `apply` command line asks for: the request the library plans (``ApplyRequest``) and what the
/// command line itself does (the paths, the destination's flags, the report files, the walk and the reader's
/// limits), read from the words by ``ApplyFastPath``'s table or mapped from ArgumentParser's parse, and run the same way.
struct ApplySettings: Equatable {
    var request: ApplyRequest
    var paths: [String] = []
    var inPlace = false
    var output: String?
    var check = false
    var diff = false
    var allowSharedContentID = false
    var input = InputSettings()
    var reports: [String] = []

    init(template: String) { request = ApplyRequest(template: template) }
}
