import Foundation
import SKDTestSupport
import Testing

/// A full disk during an in-place rewrite: the write fails, the original stays, nothing is left behind.
/// Needs a small tmpfs (mounting one needs root); the test says so when it cannot have one.
@Suite("a full disk")
struct FullDiskTests {
    /// A fresh 64 KiB tmpfs, or `nil` if this process cannot mount one.
    static func smallDisk() -> URL? {
        let point = FileManager.default.temporaryDirectory.appendingPathComponent("skdpack-full-\(UUID().uuidString)")
        guard (try? FileManager.default.createDirectory(at: point, withIntermediateDirectories: true)) != nil else { return nil }
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=64k", "tmpfs", point.path]
        mount.standardError = FileHandle.nullDevice
        guard (try? mount.run()) != nil else { return nil }
        mount.waitUntilExit()
        guard mount.terminationStatus == 0 else {
            try? FileManager.default.removeItem(at: point)
            return nil
        }
        return point
    }

    static func release(_ point: URL) {
        let umount = Process()
        umount.executableURL = URL(fileURLWithPath: "/bin/umount")
        umount.arguments = [point.path]
        try? umount.run()
        umount.waitUntilExit()
        try? FileManager.default.removeItem(at: point)
    }

    @Test(
        "standard output that cannot be written (/dev/full): the command says so and exits 2, as it could not do its job",
        arguments: [
            ["render", "--template", "content-id", "--var", "content_id=x"], ["resolve", "skd://lic.example.com/x"], ["templates", "list"],
            ["templates", "show", "content-id"], ["inspect", "examples/library/crlf-title/index.m3u8"],
            ["validate", "--format", "json", "examples/library/crlf-title/index.m3u8"],
        ])
    func standardOutputFull(_ arguments: [String]) throws {
        let run = try SKDPackRunner.run(
            ["-c", #""$0" "$@" > /dev/full"#, SKDPackRunner.executable.path] + arguments, directory: PackageLocation.root,
            program: URL(fileURLWithPath: "/bin/sh"))
        #expect(run.status == 2, "\(arguments): \(run.stderr)")
        #expect(
            run.stderr.contains("<stdout>: cannot write") && run.stderr.contains("No space left on device"), "\(arguments): \(run.stderr)")
    }

    @Test("--in-place on a full disk: the original is kept, the error names the file, exit 2, no temporary file")
    func inPlace() throws {
        guard let disk = Self.smallDisk() else {
            print("skipped: cannot mount a small tmpfs here (needs root) to fill a disk")
            return
        }
        defer { Self.release(disk) }
        var text =
            "#EXTM3U\n#EXT-X-VERSION:5\n#EXT-X-TARGETDURATION:10\n"
            + #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://title-1",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""# + "\n"
        for index in 0..<1500 { text += "#EXTINF:10,\nsegment-\(index).ts\n" }
        text += "#EXT-X-ENDLIST\n"
        let playlist = disk.appendingPathComponent("video.m3u8")
        try Data(text.utf8).write(to: playlist)
        #expect(text.utf8.count > 32 * 1024, "the rewrite cannot fit beside the original")
        let result = try SKDPackRunner.run([
            "apply", "--template", "entitlement", "--var", "entitlement_url=https://lic.example.com/fps",
            "--var", "content_id=title-1", "--in-place", playlist.path,
        ])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(playlist.path))
        #expect(result.stderr.contains("No space left on device"))
        #expect(try String(contentsOf: playlist, encoding: .utf8) == text)
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path) == ["video.m3u8"])
    }
}
