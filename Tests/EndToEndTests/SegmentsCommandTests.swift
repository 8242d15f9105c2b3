import Foundation
import SKDTestSupport
import Testing

/// `skdpack validate --segments` and `skdpack inspect SEGMENT` as a user runs them: on the shipped example,
/// on the real FairPlay title of the shared material (whose faults are real), and on titles ffmpeg makes
/// here with known durations and keyframes, each then broken one way.
@Suite("validate --segments and inspect of segments")
struct SegmentsCommandTests {
    static let repository = PackageLocation.root

    @Test func theExampleTitleChecksClean() throws {
        let run = try SKDPackRunner.run(["validate", "--segments", "examples/segments/"], directory: Self.repository)
        #expect(run.status == 0, "\(run.stdoutText)\(run.stderr)")
        #expect(run.stdoutText.contains("1 playlist checked: 0 errors, 0 warnings"), "\(run.stdoutText)")
        #expect(run.stdoutText.contains("; 3 segments read, "), "\(run.stdoutText)")
        // The report says what was measured: three 2-second segments, each with its size and bit rate.
        let json = try SKDPackRunner.run(["validate", "--segments", "--format", "json", "examples/segments/"], directory: Self.repository)
        let report = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        let measured = try #require((report["playlists"] as? [[String: Any]])?.first?["measured"] as? [String: Any])
        #expect(measured["segmentsRead"] as? Int == 3 && measured["durationMilliseconds"] as? Int == 6000)
        let rows = try #require(measured["segments"] as? [[String: Any]])
        let sizes = try (0..<3).map {
            try FileManager.default.attributesOfItem(atPath: "\(Self.repository.path)/examples/segments/segment-\($0).m4s")[.size] as! Int
        }
        #expect(rows.map { $0["bytes"] as? Int } == sizes)
        #expect(rows.map { $0["bitRate"] as? Int } == sizes.map { Int((Double($0) * 8 / 2).rounded()) })
        #expect((measured["codecs"] as? [String])?.sorted() == ["avc1.4d400c", "mp4a.40.2"])
    }

    /// shaka-player's FairPlay title: the first "encrypted" audio segment uses the clear sample entry
    /// ('mp4a', sample_description_index 2 in its 'tfhd', no 'senc'), the third is cut 1,728 bytes short
    /// of what its 'mdat' announces; two video segments are not in the snapshot.
    @Test(.enabled(if: SharedMaterial.segments != nil, Comment(rawValue: SharedMaterial.skipReason)))
    func theFairPlayTitlesRealFaults() throws {
        let folder = SharedMaterial.segments!.appendingPathComponent("shaka-player-clear-encrypted-hls")
        let audio = try SKDPackRunner.run([
            "validate", "--segments", "--format", "json", folder.appendingPathComponent("audio-swapped.m3u8").path,
        ])
        #expect(audio.status == 1)
        let findings = try Self.findings(audio.stdout)
        #expect(findings.map { "\($0.rule)@\($0.line)" } == ["SEG-encryption-mismatch@14", "SEG-unreadable@18"])
        #expect(findings[0].message.contains("'mp4a' (sample_description_index 2)"))
        #expect(findings[1].message.contains("offset 2474") && findings[1].message.contains("mdat"))
        let video = try SKDPackRunner.run([
            "validate", "--segments", "--format", "json", folder.appendingPathComponent("video-swapped.m3u8").path,
        ])
        #expect(try Self.findings(video.stdout).map { "\($0.rule)@\($0.line)" } == ["SEG-unreadable@14", "SEG-unreadable@18"])
    }

    @Test(.enabled(if: SharedMaterial.segments != nil, Comment(rawValue: SharedMaterial.skipReason)))
    func intactRealTitlesStaySilent() throws {
        let folder = SharedMaterial.segments!
        for playlist in ["shaka-player-hls-sample-aes/index.m3u8"] {
            let run = try SKDPackRunner.run(["validate", "--segments", folder.appendingPathComponent(playlist).path])
            #expect(run.status == 0, "\(playlist): \(run.stdoutText)")
        }
        // The gap title's only finding is its EXT-X-VERSION line (a space after the colon): no SEG finding.
        let gap = try SKDPackRunner.run([
            "validate", "--segments", "--format", "json", folder.appendingPathComponent("shaka-player-hls-gap/playlist.m3u8").path,
        ])
        #expect(try Self.findings(gap.stdout).map(\.rule) == ["HLS-tag-value"])
    }

    /// A clear MPEG-TS title from ffmpeg, 1-second segments cut by time from a 2-second keyframe interval:
    /// every other segment starts between keyframes.
    @Test(.enabled(if: FFprobe.executable != nil, Comment(rawValue: FFprobe.skipReason)))
    func generatedTransportStreamTitle() throws {
        let folder = try Self.ffmpegTitle(segmentType: "mpegts", extra: ["-hls_flags", "split_by_time"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let playlist = folder.appendingPathComponent("title.m3u8")
        let original = try String(contentsOf: playlist, encoding: .utf8)
        var run = try SKDPackRunner.run(["validate", "--segments", "--format", "json", playlist.path])
        let findings = try Self.findings(run.stdout)
        // Segments 1, 3 and 5 start between keyframes.
        #expect(findings.map { "\($0.rule)@\($0.line)" } == ["SEG-sync-start@9", "SEG-sync-start@13", "SEG-sync-start@17"], "\(findings)")

        // A wrong EXTINF.
        try original.replacingOccurrences(of: "#EXTINF:1.000000,\nsegment-2.ts", with: "#EXTINF:3.000000,\nsegment-2.ts")
            .write(to: playlist, atomically: true, encoding: .utf8)
        run = try SKDPackRunner.run(["validate", "--segments", "--format", "json", playlist.path])
        #expect(try Self.findings(run.stdout).filter { $0.rule == "SEG-extinf-duration" }.count == 1)

        // A segment left out: the timestamps jump, unless EXT-X-DISCONTINUITY says so.
        let cut = original.replacingOccurrences(of: "#EXTINF:1.000000,\nsegment-1.ts\n", with: "")
        try cut.write(to: playlist, atomically: true, encoding: .utf8)
        run = try SKDPackRunner.run(["validate", "--segments", "--format", "json", playlist.path])
        #expect(try Self.findings(run.stdout).filter { $0.rule == "SEG-timestamp-jump" }.count == 1)
        try cut.replacingOccurrences(of: "#EXTINF:1.000000,\nsegment-2.ts", with: "#EXT-X-DISCONTINUITY\n#EXTINF:1.000000,\nsegment-2.ts")
            .write(to: playlist, atomically: true, encoding: .utf8)
        run = try SKDPackRunner.run(["validate", "--segments", "--format", "json", playlist.path])
        #expect(try Self.findings(run.stdout).filter { $0.rule == "SEG-timestamp-jump" }.isEmpty)

        // Under a FairPlay key, clear TS is a mismatch: one finding for the key period, at its first segment,
        // counting the five after it.
        let key = #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://t",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#
        try original.replacingOccurrences(of: "#EXTINF", with: key + "\n#EXTINF", options: [], range: original.range(of: "#EXTINF"))
            .write(to: playlist, atomically: true, encoding: .utf8)
        run = try SKDPackRunner.run(["validate", "--segments", "--format", "json", playlist.path])
        let mismatches = try Self.findings(run.stdout).filter { $0.rule == "SEG-encryption-mismatch" }
        #expect(mismatches.map(\.line) == [8] && mismatches.first?.message.contains("and the 5 segments after it") == true, "\(mismatches)")

        // inspect agrees with ffprobe on the first segment: duration, and the profile and level in the codec.
        let segment = folder.appendingPathComponent("segment-0.ts")
        let inspect = try SKDPackRunner.run(["inspect", segment.path])
        #expect(inspect.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: inspect.stdout) as? [String: Any])
        let measured = try #require(json["measured"] as? [String: Any])
        let reference = try #require(try FFprobe.duration(segment))
        #expect(abs((measured["duration"] as? Double ?? 0) - reference) < 0.05, "\(measured) against \(reference)")
        let video = try #require(
            try FFprobe.streams(segment, entries: ["codec_name", "profile", "level"]).first { $0["codec_name"] == "h264" })
        let codec = try #require((measured["codecs"] as? [String])?.first)
        let profiles = ["Constrained Baseline": "42", "Baseline": "42", "Main": "4d", "High": "64"]
        #expect(codec.hasPrefix("avc1." + profiles[video["profile"]!]!), "\(codec) against \(video)")
        #expect(Int(codec.suffix(2), radix: 16) == Int(video["level"]!), "\(codec) against \(video)")
    }

    /// A clear fMP4 title from ffmpeg with EXT-X-INDEPENDENT-SEGMENTS and segments cut between keyframes:
    /// the tag is untrue.
    @Test(.enabled(if: FFprobe.executable != nil, Comment(rawValue: FFprobe.skipReason)))
    func generatedFragmentedTitleClaimingIndependence() throws {
        let folder = try Self.ffmpegTitle(segmentType: "fmp4", extra: ["-hls_flags", "split_by_time"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let playlist = folder.appendingPathComponent("title.m3u8")
        // ffmpeg writes EXT-X-VERSION:7 where its EXT-X-MAP needs 6 (HLS-version-too-high, not this test's).
        let validate = ["validate", "--segments", "--disable", "HLS-version-too-high", "--format", "json", playlist.path]
        var run = try SKDPackRunner.run(validate)
        #expect(try Self.findings(run.stdout).map(\.rule) == ["SEG-sync-start", "SEG-sync-start", "SEG-sync-start"])
        #expect(run.status == 0)
        let text = try String(contentsOf: playlist, encoding: .utf8)
        try text.replacingOccurrences(of: "#EXTM3U\n", with: "#EXTM3U\n#EXT-X-INDEPENDENT-SEGMENTS\n").write(
            to: playlist, atomically: true, encoding: .utf8)
        run = try SKDPackRunner.run(validate)
        #expect(try Self.findings(run.stdout).map(\.rule) == ["SEG-not-independent", "SEG-not-independent", "SEG-not-independent"])
        #expect(run.status == 1)
    }

    /// A master over a TS title ffmpeg made: BANDWIDTH and AVERAGE-BANDWIDTH held to the peak and average
    /// segment bit rates (rfc8216bis 4.1) computed here from the files' sizes and ffprobe's durations.
    @Test(.enabled(if: FFprobe.executable != nil, Comment(rawValue: FFprobe.skipReason)))
    func variantsHeldToTheirMeasuredBitRates() throws {
        let folder = try Self.ffmpegTitle(segmentType: "mpegts", extra: [], segmentSeconds: 2)
        defer { try? FileManager.default.removeItem(at: folder) }
        var sizes: [Double] = []
        var durations: [Double] = []
        for index in 0..<3 {
            let file = folder.appendingPathComponent("segment-\(index).ts")
            sizes.append(Double(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as! Int))
            let video = try #require(try FFprobe.streams(file, entries: ["codec_type", "duration"]).first { $0["codec_type"] == "video" })
            durations.append(Double(video["duration"]!)!)
        }
        // Target duration 2: windows of 1 to 3.5 seconds.
        var peak = 0.0
        for start in 0..<3 {
            var bytes = 0.0
            var seconds = 0.0
            for index in start..<3 {
                bytes += sizes[index]
                seconds += durations[index]
                if seconds > 3.5 { break }
                if seconds >= 1 { peak = max(peak, bytes * 8 / seconds) }
            }
        }
        let average = sizes.reduce(0, +) * 8 / durations.reduce(0, +)
        func master(
            bandwidth: Int, average: Int, codecs: String = "avc1.42c00b,mp4a.40.2", resolution: String = "160x90"
        ) throws -> [Finding] {
            let text =
                "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=\(bandwidth),AVERAGE-BANDWIDTH=\(average),CODECS=\"\(codecs)\",RESOLUTION=\(resolution)\ntitle.m3u8\n"
            try text.write(to: folder.appendingPathComponent("master.m3u8"), atomically: true, encoding: .utf8)
            let run = try SKDPackRunner.run([
                "validate", "--segments", "--format", "json", folder.appendingPathComponent("master.m3u8").path,
            ])
            return try Self.findings(run.stdout).filter { $0.rule.hasPrefix("PKG-") }
        }
        // The codec as the media says it (ffmpeg's profile and level for this preset).
        let codec = try #require(
            try SKDPackRunner.run(["inspect", folder.appendingPathComponent("segment-0.ts").path]).stdoutText
                .firstMatch(of: /"(avc1\.[0-9a-f]{6})"/)?.output.1)
        let codecs = "\(codec),mp4a.40.2"
        #expect(try master(bandwidth: Int(peak), average: Int(average), codecs: codecs).isEmpty)
        let low = try master(bandwidth: Int(peak / 2), average: Int(average), codecs: codecs)
        #expect(low.map(\.rule) == ["PKG-bandwidth-measured"])
        let stated = try #require(low.first?.message.firstMatch(of: /media is (\d+) bit\/s/)?.output.1).description
        #expect(abs(Double(stated)! - peak) / peak < 0.02, "\(stated) against \(peak)")
        #expect(try master(bandwidth: Int(peak * 3), average: Int(average), codecs: codecs).map(\.rule) == ["PKG-bandwidth-overstated"])
        #expect(try master(bandwidth: Int(peak), average: Int(average / 2), codecs: codecs).map(\.rule) == ["PKG-bandwidth-measured"])
        #expect(try master(bandwidth: Int(peak), average: Int(average), codecs: "mp4a.40.2").map(\.rule) == ["PKG-codecs-measured"])
        #expect(
            try master(bandwidth: Int(peak), average: Int(average), codecs: codecs, resolution: "320x180").map(\.rule) == [
                "PKG-resolution-measured"
            ])
    }

    /// Six seconds of 160x90 H.264 (a keyframe every 2 s) and AAC, as HLS segments of `segmentSeconds`.
    static func ffmpegTitle(segmentType: String, extra: [String], segmentSeconds: Int = 1) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("skdpack-ffmpeg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let ffmpeg = FFprobe.executable!.deletingLastPathComponent().appendingPathComponent("ffmpeg")
        let process = Process()
        process.executableURL = ffmpeg
        process.currentDirectoryURL = folder
        let suffix = segmentType == "fmp4" ? "m4s" : "ts"
        process.arguments =
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x90:rate=25", "-f", "lavfi", "-i",
                "sine=frequency=440:sample_rate=48000",
                "-t", "6", "-c:v", "libx264", "-preset", "ultrafast", "-profile:v", "main", "-g", "50", "-keyint_min", "50",
                "-sc_threshold", "0", "-pix_fmt", "yuv420p", "-c:a", "aac", "-ac", "1", "-b:a", "32k", "-f", "hls", "-hls_time",
                "\(segmentSeconds)",
                "-hls_playlist_type", "vod", "-hls_segment_type", segmentType, "-hls_segment_filename", "segment-%d.\(suffix)",
            ] + extra + ["title.m3u8"]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return folder
    }

    struct Finding {
        var rule: String
        var line: Int
        var message: String
    }

    /// The findings of a JSON report, in order.
    static func findings(_ report: Data) throws -> [Finding] {
        let json = try #require(try JSONSerialization.jsonObject(with: report) as? [String: Any])
        let playlists = json["playlists"] as? [[String: Any]] ?? []
        return playlists.flatMap { ($0["diagnostics"] as? [[String: Any]]) ?? [] }.map {
            Finding(rule: $0["rule"] as? String ?? "", line: $0["line"] as? Int ?? 0, message: $0["message"] as? String ?? "")
        }
    }
}
