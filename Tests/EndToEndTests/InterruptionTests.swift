import Foundation
import SKDTestSupport
import Testing

/// An in-place library migration interrupted: never a torn or lost playlist, and a rerun finishes the job.
@Suite("interrupted migrations")
struct InterruptionTests {
    static let migrate = [
        "apply", "--template", "entitlement", "--var", "entitlement_url=https://new-lic.example.com/fps",
        "--match", "(?:.*[?&]cid=|^skd://)(?<content_id>[^/?&]+)", "--in-place", "--no-progress", "--jobs", "2",
    ]

    /// Every playlist of `library` by relative path, with its bytes.
    static func contents(_ library: LibraryFixture) throws -> [String: Data] {
        var contents: [String: Data] = [:]
        for file in try FileManager.default.subpathsOfDirectory(atPath: library.path()) where file.hasSuffix(".m3u8") {
            let name = URL(fileURLWithPath: file).lastPathComponent
            guard !name.hasPrefix(".") else { continue }
            contents[file] = try Data(contentsOf: URL(fileURLWithPath: library.path(file)))
        }
        return contents
    }

    /// The library before and after a complete migration.
    static func states(titles: Int, segments: Int) throws -> (original: [String: Data], migrated: [String: Data]) {
        let reference = try LibraryFixture(titles: titles, segments: segments)
        defer { reference.remove() }
        let original = try contents(reference)
        let run = try SKDPackRunner.run(migrate + [reference.path()])
        #expect(run.status == 0, "\(run.stderr)")
        return (original, try contents(reference))
    }

    /// The inode of every playlist of `library`: a rewrite (a rename over the file) changes it.
    static func inodes(_ library: LibraryFixture) throws -> [String: UInt64] {
        var inodes: [String: UInt64] = [:]
        for file in try FileManager.default.subpathsOfDirectory(atPath: library.path()) where file.hasSuffix(".m3u8") {
            var info = stat()
            if stat(library.path(file), &info) == 0 { inodes[file] = UInt64(info.st_ino) }
        }
        return inodes
    }

    /// Starts a migration of `library`, waits until it has replaced a first playlist (so the signal lands
    /// while playlists are being rewritten, whatever the machine's speed), then `milliseconds` more, and
    /// sends `signal`. Returns the exit status (minus the signal when killed by one) and standard error.
    static func interrupt(
        _ library: LibraryFixture, after milliseconds: Int, with signal: Int32, adding extra: [String] = []
    ) throws -> (Int32, String) {
        let before = try inodes(library)
        let process = Process()
        process.executableURL = SKDPackRunner.executable
        process.arguments = migrate + extra + [library.path()]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        while process.isRunning, try inodes(library) == before { usleep(1000) }
        usleep(useconds_t(milliseconds * 1000))
        kill(process.processIdentifier, signal)
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationReason == .uncaughtSignal ? -process.terminationStatus : process.terminationStatus, text)
    }

    /// Each playlist is its original or its migrated form, never anything in between.
    static func expectWhole(_ library: LibraryFixture, _ original: [String: Data], _ migrated: [String: Data]) throws -> Int {
        let now = try contents(library)
        #expect(Set(now.keys) == Set(original.keys), "no playlist lost or added")
        var done = 0
        for (file, bytes) in now {
            let whole = bytes == original[file] || bytes == migrated[file]
            #expect(whole, "\(file) is neither its original nor its migrated form")
            if bytes == migrated[file], bytes != original[file] { done += 1 }
        }
        return done
    }

    @Test("SIGKILL at many moments of rewriting: every playlist whole, temporary files never read and removed by the rerun, which finishes")
    func killed() throws {
        let (original, migrated) = try Self.states(titles: 120, segments: 300)
        let library = try LibraryFixture(titles: 120, segments: 300)
        defer { library.remove() }
        var generator = SystemRandomNumberGenerator()
        var midRun = 0
        for _ in 0..<8 {
            let delay = Int.random(in: 0...40, using: &generator)
            let (status, _) = try Self.interrupt(library, after: delay, with: SIGKILL)
            #expect(status == -SIGKILL || status == 0, "killed after \(delay) ms: \(status)")
            let done = try Self.expectWhole(library, original, migrated)
            if status == -SIGKILL, done > 0, done < original.count { midRun += 1 }
        }
        #expect(midRun >= 2, "kills that landed while playlists were being rewritten: \(midRun)")
        let leftovers = try FileManager.default.subpathsOfDirectory(atPath: library.path())
            .filter { URL(fileURLWithPath: $0).lastPathComponent.hasPrefix(".skdpack-") }
        let check = try SKDPackRunner.run(["validate", "--format", "json", library.path()])
        for leftover in leftovers { #expect(!check.stdoutText.contains(leftover), "a temporary file is never read as a playlist") }
        // Leftovers younger than a few seconds are spared (they could be a live run's, between creating and
        // locking them): age them, as if the rerun came later.
        for leftover in leftovers {
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: library.path(leftover))
        }
        let rerun = try SKDPackRunner.run(Self.migrate + [library.path()])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(try Self.contents(library) == migrated, "the rerun finishes the job")
        let remaining = try FileManager.default.subpathsOfDirectory(atPath: library.path())
            .filter { URL(fileURLWithPath: $0).lastPathComponent.hasPrefix(".skdpack-") }
        #expect(remaining.isEmpty, "the rerun removes the killed runs' temporary files: \(remaining)")
        if !leftovers.isEmpty { #expect(rerun.stderr.contains("left by an interrupted run")) }
    }

    @Test("SIGTERM: the files in flight are finished, nothing is left half done, exit 143; a rerun finishes")
    func terminated() throws {
        let (original, migrated) = try Self.states(titles: 150, segments: 400)
        let library = try LibraryFixture(titles: 150, segments: 400)
        defer { library.remove() }
        let report = library.path() + "-report.json"
        defer { try? FileManager.default.removeItem(atPath: report) }
        let (status, errors) = try Self.interrupt(library, after: 20, with: SIGTERM, adding: ["--report", report])
        if status == 0 {
            Issue.record("the migration finished before SIGTERM arrived: make the library larger")
            return
        }
        #expect(status == 128 + SIGTERM)
        #expect(errors.contains("skdpack: stopped by SIGTERM after"))
        let done = try Self.expectWhole(library, original, migrated)
        #expect(done < original.count)
        // The report says it is partial, and how many playlists the run did not get to.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        let run = try #require(json["run"] as? [String: Any])
        let listed = (json["playlists"] as? [[String: Any]])?.count ?? 0
        #expect(run["partial"] as? Bool == true)
        #expect(run["notDone"] as? Int == original.count - listed, "\(run)")
        let leftovers = try FileManager.default.subpathsOfDirectory(atPath: library.path())
            .filter { URL(fileURLWithPath: $0).lastPathComponent.hasPrefix(".skdpack-") }
        #expect(leftovers.isEmpty, "a clean stop leaves no temporary file: \(leftovers)")
        let rerun = try SKDPackRunner.run(Self.migrate + [library.path()])
        #expect(rerun.status == 0)
        #expect(try Self.contents(library) == migrated)
    }
}
