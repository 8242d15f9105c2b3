import Foundation
import SKDTestSupport
import Testing

/// The hostile-input catalogue, run as a user runs skdpack: each case gets a clear, located diagnostic, a
/// non-zero exit, and leaves every file as it was.
@Suite("hostile input")
struct HostileInputTests {
    /// A fresh directory for one test.
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("skdpack-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A media playlist of `segments` segments, with one FairPlay key.
    static func media(segments: Int) -> String {
        var text = "#EXTM3U\n#EXT-X-VERSION:5\n#EXT-X-TARGETDURATION:6\n"
        text += #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://old",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""# + "\n"
        for index in 0..<segments { text += "#EXTINF:6,\ns\(index).ts\n" }
        return text + "#EXT-X-ENDLIST\n"
    }

    static let rewrite = ["apply", "--template", "content-id", "--var", "content_id=new", "--no-progress"]

    /// Runs `arguments` under a shell's `ulimit -v` (address space, in KiB), so that a command that tried
    /// to hold a large input in memory would fail. Returns the exit status and both outputs, merged.
    static func runLimited(addressSpaceKiB: Int, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let quoted = ([SKDPackRunner.executable.path] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "ulimit -v \(addressSpaceKiB) && exec \(quoted) 2>&1"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test("a 1 GB line: read in bounded memory (under 256 MiB of address space), reported at 1:1, the file kept")
    func gigabyteLine() throws {
        let folder = try Self.directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("huge.m3u8")
        // A sparse file: a billion NUL bytes and no newline, without a billion bytes of disk.
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        #expect(truncate(file.path, 1_000_000_000) == 0)

        let validated = try Self.runLimited(addressSpaceKiB: 256 << 10, ["validate", "--no-progress", file.path])
        #expect(validated.status == 1, "\(validated.output)")
        #expect(validated.output.contains("huge.m3u8:1:1: error: this line is longer than 1048576 bytes"))
        #expect(validated.output.contains("[HLS-line-too-long]"))

        let capped = try SKDPackRunner.run(["cat", "--max-playlist-size", "64M", file.path])
        #expect(capped.status == 1)
        #expect(capped.stdout.count <= 64 << 20)
        #expect(capped.stderr.contains("huge.m3u8:1:67108865: error: the playlist goes past 67108864 bytes"))

        let applied = try Self.runLimited(addressSpaceKiB: 256 << 10, Self.rewrite + ["--in-place", file.path])
        #expect(applied.status == 1, "\(applied.output)")
        let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int
        #expect(size == 1_000_000_000, "the file is left as it was")
    }

    @Test("--max-segments and --max-playlist-size: an error at the line past the limit, the playlist left as it was")
    func limits() throws {
        let folder = try Self.directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("long.m3u8")
        let original = Data(Self.media(segments: 100).utf8)
        try original.write(to: file)

        let applied = try SKDPackRunner.run(Self.rewrite + ["--in-place", "--max-segments", "50", file.path])
        #expect(applied.status == 1)
        // Segment 51's URI: 4 header lines, then two lines a segment.
        #expect(applied.stderr.contains("long.m3u8:106:1: error: this is segment 51, past the limit of 50 segments"))
        #expect(try Data(contentsOf: file) == original)

        let validated = try SKDPackRunner.run(["validate", "--no-progress", "--max-playlist-size", "1K", file.path])
        #expect(validated.status == 1)
        #expect(validated.stdoutText.contains("[HLS-playlist-too-large]"))
        let allowed = try SKDPackRunner.run(["validate", "--no-progress", "--max-segments", "100", file.path])
        #expect(allowed.status == 0, "\(allowed.stderr)")

        let badSize = try SKDPackRunner.run(["validate", "--max-playlist-size", "12Q", file.path])
        #expect(badSize.status == 2)
        #expect(badSize.stderr.contains("--max-playlist-size"))
    }

    @Test("masters that reference masters, in a chain, a circle or themselves: PKG-nested-master, each playlist read once")
    func nestedMasters() throws {
        let folder = try Self.directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        func master(_ name: String, _ variant: String) throws {
            try "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\n\(variant)\n".write(
                to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        try master("a.m3u8", "b.m3u8")
        try master("b.m3u8", "a.m3u8")
        try master("self.m3u8", "self.m3u8")
        try master("top.m3u8", "middle/index.m3u8")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("middle"), withIntermediateDirectories: true)
        try master("middle/index.m3u8", "media.m3u8")
        try Self.media(segments: 2).write(to: folder.appendingPathComponent("middle/media.m3u8"), atomically: true, encoding: .utf8)

        let validated = try SKDPackRunner.run(["validate", "--no-progress", folder.path])
        #expect(validated.status == 1)
        #expect(
            validated.stdoutText.contains(
                "a.m3u8:3:1: error: b.m3u8 is a master playlist; a variant or rendition must be a media playlist [PKG-nested-master]"))
        #expect(validated.stdoutText.contains("b.m3u8:3:1: error: a.m3u8 is a master playlist"))
        #expect(validated.stdoutText.contains("self.m3u8:3:1: error: self.m3u8 is this master playlist itself"))
        #expect(validated.stdoutText.contains("top.m3u8:3:1: error: middle/index.m3u8 is a master playlist"))
        #expect(validated.stdoutText.contains("6 playlists checked"), "each file once: \(validated.stdoutText)")

        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let applied = try SKDPackRunner.run(Self.rewrite + ["--in-place", folder.path])
        #expect(applied.status == 1)
        #expect(applied.stderr.contains("apply: 6 playlists read"), "\(applied.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == before)
    }

    @Test("a symbolic link loop: walked once with --follow-symlinks, skipped without; the run ends")
    func symlinkLoop() throws {
        let folder = try Self.directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.media(segments: 2).write(to: folder.appendingPathComponent("a.m3u8"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("loop").path, withDestinationPath: ".")
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("self.m3u8").path, withDestinationPath: "self.m3u8")
        for follow in [false, true] {
            let run = try SKDPackRunner.run(
                ["validate", "--no-progress", "--format", "json", folder.path] + (follow ? ["--follow-symlinks"] : []))
            let report = try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any]
            let paths = (report?["playlists"] as? [[String: Any]])?.compactMap { $0["path"] as? String } ?? []
            #expect(paths.filter { $0.hasSuffix("/a.m3u8") }.count == 1, "follow \(follow): \(paths)")
            #expect(!paths.contains { $0.contains("loop/") }, "the loop is not walked into: \(paths)")
        }
    }

    @Test("a read-only playlist with --in-place: refused with the reason, exit 2, the file and its mode kept")
    func readOnly() throws {
        let folder = try Self.directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("locked.m3u8")
        let original = Data(Self.media(segments: 3).utf8)
        try original.write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: file.path)
        let run = try SKDPackRunner.run(Self.rewrite + ["--in-place", file.path])
        #expect(run.status == 2)
        #expect(run.stderr.contains("locked.m3u8: cannot rewrite: it is read-only (mode 0444)"), "\(run.stderr)")
        #expect(try Data(contentsOf: file) == original)
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o444)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["locked.m3u8"], "no temporary file left")
    }

    @Test("a file that changes while it is read: not replaced, the other writer's bytes all kept, exit 2")
    func changingFile() throws {
        let folder = try Self.directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("live.m3u8")
        // No ENDLIST: a live playlist its packager keeps appending to.
        let header = Self.media(segments: 100_000).replacingOccurrences(of: "#EXT-X-ENDLIST\n", with: "")
        try Data(header.utf8).write(to: file)
        let appender = try FileHandle(forWritingTo: file)
        try appender.seekToEnd()
        // The packager appends a segment every millisecond from before skdpack starts until after it ends,
        // so whatever skdpack's speed, the file changes between its read and its rename.
        let stop = Atomic(false)
        let appended = Atomic(0)
        let thread = Thread {
            while !stop.load() {
                try? appender.write(contentsOf: Data("#EXTINF:6,\nlive-\(appended.load()).ts\n".utf8))
                appended.add(1)
                usleep(1000)
            }
        }
        thread.start()
        while appended.load() < 3 { usleep(1000) }
        let run = try SKDPackRunner.run(Self.rewrite + ["--in-place", file.path])
        usleep(20_000)
        stop.store(true)
        while thread.isExecuting { usleep(1000) }
        try appender.close()

        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("live.m3u8: cannot rewrite: it changed while skdpack was reading it"), "\(run.stderr)")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.hasPrefix(header), "the playlist is not replaced")
        #expect(text.contains("live-\(appended.load() - 1).ts\n"), "every appended segment is there")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["live.m3u8"], "no temporary file left")
    }

    @Test("temporary files of a killed run: removed by the next in-place run, unless a live run holds them")
    func leftovers() throws {
        let folder = try Self.directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.media(segments: 2).write(to: folder.appendingPathComponent("a.m3u8"), atomically: true, encoding: .utf8)
        let abandoned = folder.appendingPathComponent(".skdpack-a.m3u8.Ab12Cd")
        let held = folder.appendingPathComponent(".skdpack-b.m3u8.Xy34Zw")
        let recent = folder.appendingPathComponent(".skdpack-c.m3u8.Qr56St")
        for leftover in [abandoned, held, recent] {
            try Data("#EXTM3U\n#EXTINF:6,\nhalf".utf8).write(to: leftover)
        }
        let anHourAgo = Date(timeIntervalSinceNow: -3600)
        for leftover in [abandoned, held] {
            try FileManager.default.setAttributes([.modificationDate: anHourAgo], ofItemAtPath: leftover.path)
        }
        // Another run, still writing: it holds its temporary file locked (flock(1) does what skdpack does).
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = [held.path, "sleep", "30"]
        try holder.run()
        defer { holder.terminate() }
        usleep(200_000)

        let run = try SKDPackRunner.run(Self.rewrite + ["--in-place", folder.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("skdpack: removed 1 temporary file left by an interrupted run (\(abandoned.path))"), "\(run.stderr)")
        #expect(run.stderr.contains("1 playlist read"), "a temporary file is never read as a playlist")
        let remaining = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(remaining == [held.lastPathComponent, recent.lastPathComponent, "a.m3u8"].sorted())

        // --output DIR: the leftovers of an earlier run into DIR, anywhere under it.
        let output = try Self.directory()
        defer { try? FileManager.default.removeItem(at: output) }
        let nested = output.appendingPathComponent("title/.skdpack-v.m3u8.Mn78Op")
        try FileManager.default.createDirectory(at: nested.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("#EXTM3U\n".utf8).write(to: nested)
        try FileManager.default.setAttributes([.modificationDate: anHourAgo], ofItemAtPath: nested.path)
        let mirrored = try SKDPackRunner.run(Self.rewrite + ["--output", output.path, folder.appendingPathComponent("a.m3u8").path])
        #expect(mirrored.status == 0, "\(mirrored.stderr)")
        #expect(mirrored.stderr.contains("removed 1 temporary file left by an interrupted run (\(nested.path))"), "\(mirrored.stderr)")
        #expect(!FileManager.default.fileExists(atPath: nested.path))
    }
}

/// A value shared between the test and the appending thread.
private final class Atomic<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func load() -> Value { lock.withLock { value } }
    func store(_ new: Value) { lock.withLock { value = new } }
}

extension Atomic where Value == Int {
    func add(_ amount: Int) { lock.withLock { value += amount } }
}
