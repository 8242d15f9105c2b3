import Foundation
import Glibc
import SKDFiles
import Testing

/// The leftovers of a killed run: recognised by name, removed only when no live run holds them, never
/// taken for playlists.
@Suite("temporary leftovers")
struct TemporaryLeftoversTests {
    static func directory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("skdpack-leftovers-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Writes a file at `path`, last modified `age` seconds ago.
    static func leftover(_ path: String, age: Int) throws {
        try Data("#EXTM3U\n".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -Double(age))], ofItemAtPath: path)
    }

    @Test(
        "names: .skdpack-NAME.XXXXXX only",
        arguments: [
            (".skdpack-video.m3u8.Ab12Cd", true), (".skdpack-master.m3u8.000000", true),
            (".skdpack-video.m3u8", false), (".skdpack-.Ab12Cd", false), (".skdpack-video.m3u8.Ab-2Cd", false),
            ("video.m3u8", false), (".hidden.m3u8", false), ("skdpack-video.m3u8.Ab12Cd", false),
        ])
    func names(_ name: String, _ expected: Bool) {
        #expect(TemporaryLeftovers.isTemporaryName(name) == expected)
    }

    @Test("an old, unlocked leftover is removed; a held, a recent one and a symbolic link are kept")
    func removal() throws {
        let folder = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let abandoned = folder + "/.skdpack-a.m3u8.AAAAAA"
        let held = folder + "/.skdpack-b.m3u8.BBBBBB"
        let recent = folder + "/.skdpack-c.m3u8.CCCCCC"
        let link = folder + "/.skdpack-d.m3u8.DDDDDD"
        try Self.leftover(abandoned, age: 3600)
        try Self.leftover(held, age: 3600)
        try Self.leftover(recent, age: 0)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: abandoned)
        // A run in flight holds its file locked; a lock through another open file of the same file is
        // enough for the sweep's own open to be refused it.
        let holder = open(held, O_RDONLY)
        #expect(flock(holder, LOCK_EX) == 0)
        defer { close(holder) }

        let found = TemporaryLeftovers.find(under: folder)
        #expect(found == [abandoned, held, recent, link])
        let (removed, problems) = TemporaryLeftovers.remove(found)
        #expect(removed == [abandoned])
        #expect(problems.isEmpty)
        #expect(FileManager.default.fileExists(atPath: held))
        #expect(FileManager.default.fileExists(atPath: recent))
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == abandoned)
    }

    @Test("discovery lists leftovers in the walked tree and beside a given file, never as playlists")
    func discovery() throws {
        let folder = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/title", withIntermediateDirectories: true)
        try Data("#EXTM3U\n#EXTINF:6,\na.ts\n".utf8).write(to: URL(fileURLWithPath: folder + "/title/v.m3u8"))
        try Self.leftover(folder + "/title/.skdpack-v.m3u8.Ab12Cd", age: 3600)
        try Self.leftover(folder + "/title/.skdpack-other.m3u8.Ab12Cd", age: 3600)

        let walked = PlaylistDiscovery().discover([folder])
        #expect(walked.leftovers == [folder + "/title/.skdpack-other.m3u8.Ab12Cd", folder + "/title/.skdpack-v.m3u8.Ab12Cd"].sorted())
        #expect(walked.packages.flatMap(\.media).map(\.path) == [folder + "/title/v.m3u8"])

        let given = PlaylistDiscovery(findsLeftoversBesideFiles: true).discover([folder + "/title/v.m3u8"])
        #expect(given.leftovers == [folder + "/title/.skdpack-v.m3u8.Ab12Cd"], "only the given file's own")
    }
}
