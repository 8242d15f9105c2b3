import Foundation

/// The shared corpus of real playlists (`../shared/corpus`, 150 playlists with `SOURCES.tsv`), read where
/// it lives and never copied into the repository.
public enum Corpus {
    /// `SKDPACK_CORPUS` if set, else `../shared/corpus` beside the package.
    public static let directory: URL? = {
        if let override = ProcessInfo.processInfo.environment["SKDPACK_CORPUS"] {
            return URL(fileURLWithPath: override)
        }
        let candidate = PackageLocation.root.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        return FileManager.default.fileExists(atPath: candidate.path) ? candidate : nil
    }()

    public static var isAvailable: Bool { directory != nil }

    /// Printed by tests that skip because the corpus is missing.
    public static let skipReason =
        "corpus not found: set SKDPACK_CORPUS or put it at ../shared/corpus beside the package; corpus tests skipped"

    /// One playlist of the corpus with its note from `SOURCES.tsv`.
    public struct Entry: Sendable, CustomStringConvertible {
        public var file: String
        public var note: String
        public var url: URL

        /// The corpus marks playlists that are broken on purpose with NEGATIVE in their note.
        public var isNegative: Bool { note.contains("NEGATIVE") }
        public var description: String { file }
    }

    /// Every `.m3u8` of the corpus, in name order, with its note; empty when the corpus is missing.
    public static let entries: [Entry] = {
        guard let directory else { return [] }
        var notes: [String: String] = [:]
        if let sources = try? String(contentsOf: directory.appendingPathComponent("SOURCES.tsv"), encoding: .utf8) {
            for row in sources.split(separator: "\n").dropFirst() {
                let fields = row.split(separator: "\t", omittingEmptySubsequences: false)
                if let file = fields.first, let note = fields.last { notes[String(file)] = String(note) }
            }
        }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".m3u8") }.sorted().map { file in
            Entry(file: file, note: notes[file] ?? "", url: directory.appendingPathComponent(file))
        }
    }()
}

/// Where the package is checked out, from this file's own path.
public enum PackageLocation {
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // SKDTestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()
}
