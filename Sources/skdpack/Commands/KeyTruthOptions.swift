import ArgumentParser
import CPIX
import Glibc
import MP4
import SKDPack

/// Where the real keys are known, for `apply` (`--cpix`, `--kid-from media`) and `validate` (`--cpix`,
/// `--media`): the documents read and checked before anything else happens.
enum KeyTruthOptions {
    /// The documents of `paths` (files, or directories whose `*.xml` files are read), each refused with
    /// `file:line:` and the reason when skdpack cannot use it.
    static func documents(_ paths: [String]) throws -> [CPIXDocument] {
        var documents: [CPIXDocument] = []
        for path in paths {
            for file in try files(path) {
                do {
                    documents.append(try CPIXReader.read(file))
                } catch {
                    throw UsageFailure("--cpix \(error)")
                }
            }
        }
        return documents
    }

    /// `path` itself, or the `.xml` files directly in it when it is a directory, in name order.
    private static func files(_ path: String) throws -> [String] {
        var info = stat()
        guard stat(path, &info) == 0 else { throw UsageFailure("--cpix \(path): \(String(cString: strerror(errno)))") }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return [path] }
        guard let directory = opendir(path) else { throw UsageFailure("--cpix \(path): \(String(cString: strerror(errno)))") }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasSuffix(".xml"), !name.hasPrefix(".") { names.append(name) }
        }
        guard !names.isEmpty else { throw UsageFailure("--cpix \(path): the directory holds no .xml document") }
        return names.sorted().map { (path.hasSuffix("/") ? path : path + "/") + $0 }
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
