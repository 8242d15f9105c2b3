import Foundation

/// The shared real material beside the corpus: init segments (`../shared/media`) and CPIX documents
/// (`../shared/cpix`), each with its `SOURCES.tsv`, read where they live and never copied in.
public enum SharedMaterial {
    /// `SKDPACK_SHARED` if set, else `../shared` beside the package.
    public static let directory: URL? = {
        if let override = ProcessInfo.processInfo.environment["SKDPACK_SHARED"] {
            return URL(fileURLWithPath: override)
        }
        let candidate = PackageLocation.root.deletingLastPathComponent().appendingPathComponent("shared")
        return FileManager.default.fileExists(atPath: candidate.appendingPathComponent("media").path) ? candidate : nil
    }()

    public static var media: URL? { directory?.appendingPathComponent("media") }
    public static var cpix: URL? { directory?.appendingPathComponent("cpix") }
    /// Real media segments (fMP4 fragments, MPEG-TS), each folder as its playlists expect.
    public static var segments: URL? {
        directory.map { $0.appendingPathComponent("segments") }.flatMap { FileManager.default.fileExists(atPath: $0.path) ? $0 : nil }
    }

    /// Printed by tests that skip because the material is missing.
    public static let skipReason =
        "shared material not found: set SKDPACK_SHARED or put it at ../shared beside the package; media and CPIX tests skipped"

    /// The rows of `SOURCES.tsv` in `folder`, each as its columns by header name.
    public static func sources(in folder: URL) -> [[String: String]] {
        guard let text = try? String(contentsOf: folder.appendingPathComponent("SOURCES.tsv"), encoding: .utf8) else { return [] }
        let rows = text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        guard let header = rows.first else { return [] }
        return rows.dropFirst().map { Dictionary(zip(header, $0), uniquingKeysWith: { first, _ in first }) }
    }

    /// The files of `folder` with one of `extensions`, in name order.
    public static func files(in folder: URL?, extensions: [String]) -> [URL] {
        guard let folder, let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return names.filter { name in extensions.contains { name.hasSuffix("." + $0) } }.sorted().map { folder.appendingPathComponent($0) }
    }
}
