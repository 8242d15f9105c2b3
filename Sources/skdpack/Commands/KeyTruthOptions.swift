import ArgumentParser
import CPIX
import MP4
import SKDKeys
import SKDPack

/// Where the real keys are known, for `apply` (`--cpix`, `--kid-from media`) and `validate` (`--cpix`,
/// `--media`): the documents read and checked before anything else happens.
enum KeyTruthOptions {
    /// The documents of `paths` (files, or directories whose `*.xml` files are read), each refused with
    /// `file:line:` and the reason when skdpack cannot use it.
    static func documents(_ paths: [String]) throws -> [CPIXDocument] {
        var documents: [CPIXDocument] = []
        for path in paths {
            let files: [String]
            do {
                files = try KeyTruth.documentFiles(at: path)
            } catch {
                throw UsageFailure("--cpix \(error)")
            }
            guard !files.isEmpty else { throw UsageFailure("--cpix \(path): the directory holds no .xml document") }
            for file in files {
                do {
                    documents.append(try CPIXReader.read(file))
                } catch {
                    throw UsageFailure("--cpix \(error)")
                }
            }
        }
        return documents
    }

    /// The key truth of an `apply` run.
    static func apply(cpix: [String], kidFrom: String?, maxInitSize: Int) throws -> KeyTruth {
        if let kidFrom, kidFrom != "media" { throw UsageFailure("--kid-from \(kidFrom): the KID can come from media only") }
        if kidFrom != nil, !cpix.isEmpty {
            throw UsageFailure(
                "--cpix and --kid-from media both give {kid}: give one (validate --cpix --media checks one against the other)")
        }
        guard maxInitSize > 0 else { throw UsageFailure("--max-init-size must be positive") }
        return KeyTruth(documents: try documents(cpix), kidFromMedia: kidFrom != nil, initSegments: InitSegmentStore(limit: maxInitSize))
    }
}
