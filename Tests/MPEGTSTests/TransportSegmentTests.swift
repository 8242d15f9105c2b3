import Foundation
import MPEGTS
import SKDTestSupport
import Testing

/// The real MPEG-TS segments of the shared material (SAMPLE-AES H.264 + AC-3 with its decrypted twin, and
/// clear H.264 around a gap), read by ``TransportSegmentFile`` and held to ffprobe: PIDs, stream types,
/// first timestamps, the video's duration, size, profile and level, and whether it starts on a key frame.
@Suite struct RealTransportSegmentTests {
    static let files: [String] = {
        guard SharedMaterial.segments != nil else { return [] }
        return ["iori-ssa-ac3/segment-0.ts", "iori-ssa-ac3/segment-0.ts.dec"]
            + ["2", "3", "4", "6", "7", "8"].map { "shaka-player-hls-gap/\($0).ts" }
    }()

    static let profiles = ["Baseline": 66, "Constrained Baseline": 66, "Main": 77, "Extended": 88, "High": 100]

    @Test(.enabled(if: FFprobe.executable != nil, Comment(rawValue: FFprobe.skipReason)), arguments: files)
    func streamsAsFFprobeReadsThem(_ name: String) throws {
        let file = SharedMaterial.segments!.appendingPathComponent(name)
        let segment = try TransportSegmentFile.read(file.path)
        let streams = try FFprobe.streams(
            file, entries: ["index", "id", "codec_name", "codec_tag", "profile", "level", "width", "height", "start_pts", "duration_ts"])
        #expect(segment.streams.count == streams.count, "\(name)")
        let packets = try FFprobe.packets(file)
        for reference in streams {
            let pid = UInt16(reference["id"]!.dropFirst(2), radix: 16)!
            let stream = try #require(segment.streams.first { $0.pid == pid }, "\(name) PID \(pid)")
            #expect(stream.firstPTS == UInt64(reference["start_pts"]!), "\(name) PID \(pid)")
            guard reference["codec_name"] == "h264" else { continue }
            #expect(UInt8(reference["codec_tag"]!.dropFirst(2), radix: 16) == stream.streamType, "\(name)")
            let parameters = try #require(stream.sequenceParameters, "\(name)")
            #expect(Int(parameters.profile) == Self.profiles[reference["profile"]!], "\(name)")
            #expect(Int(parameters.level) == Int(reference["level"]!), "\(name)")
            #expect(parameters.width == Int(reference["width"]!) && parameters.height == Int(reference["height"]!), "\(name)")
            let ticks = try #require(segment.duration.map { UInt64(($0 * 90_000).rounded()) })
            #expect(ticks == UInt64(reference["duration_ts"]!), "\(name)")
            let index = Int(reference["index"]!)!
            #expect(stream.startsWithSyncSample == packets.first { $0.stream == index }?.isKey, "\(name)")
        }
        // A segment costs its two ends at most.
        #expect(segment.bytesRead <= min(segment.size, 2 * 256 * 1024))
    }

    /// What the source says of the SAMPLE-AES segment's PMT (Apple's MPEG-2 Stream Encryption Format for
    /// HLS): AC-3 as 0xC1 with `ac3d` and the `apad` audio setup, H.264 as 0xDB with `zavc`; its decrypted
    /// twin has the clear types (0x81, 0x1B). The NAL unit headers stay clear under SAMPLE-AES.
    @Test(.enabled(if: SharedMaterial.segments != nil, Comment(rawValue: SharedMaterial.skipReason)))
    func sampleAESStreamsAsTheSourceDescribesThem() throws {
        let folder = try #require(SharedMaterial.segments)
        let encrypted = try TransportSegmentFile.read(folder.appendingPathComponent("iori-ssa-ac3/segment-0.ts").path)
        #expect(encrypted.streams.map(\.streamType) == [0xC1, 0xDB])
        #expect(encrypted.audio?.privateDataIndicator == "ac3d" && encrypted.audio?.registrations == ["apad"])
        #expect(encrypted.video?.privateDataIndicator == "zavc")
        #expect(encrypted.streams.allSatisfy { $0.isSampleAESType })
        #expect(encrypted.video?.startsWithSyncSample == true && encrypted.video?.codec == "avc1.640028")
        let clear = try TransportSegmentFile.read(folder.appendingPathComponent("iori-ssa-ac3/segment-0.ts.dec").path)
        #expect(clear.streams.map(\.streamType) == [0x81, 0x1B])
        #expect(!clear.streams.contains { $0.isSampleAESType })
        #expect(encrypted.syncLosses.isEmpty && encrypted.continuityErrors.isEmpty)
    }
}

/// Transport streams that lie or are cut: findings with offsets, never a crash or a read past the end.
@Suite struct MalformedTransportSegmentTests {
    @Test(.enabled(if: SharedMaterial.segments != nil, Comment(rawValue: SharedMaterial.skipReason)))
    func lostSyncAndSkippedCountersAreFound() throws {
        let folder = try #require(SharedMaterial.segments)
        var bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent("shaka-player-hls-gap/2.ts")))
        bytes[188 * 10] = 0x00
        // The continuity counter of packet 20 moved on by two.
        bytes[188 * 20 + 3] = (bytes[188 * 20 + 3] & 0xF0) | ((bytes[188 * 20 + 3] &+ 2) & 0x0F)
        let segment = try TransportSegment.parse(bytes)
        #expect(segment.syncLosses.first == 188 * 10)
        #expect(segment.continuityErrors.contains { $0.offset == 188 * 20 })
    }

    @Test func noProgramTablesIsAnError() {
        #expect(throws: TransportFormatError.self) { try TransportSegment.parse(Array(repeating: 0x47, count: 188 * 4)) }
        #expect(throws: TransportFormatError.self) { try TransportSegment.parse([0x47, 0x00]) }
    }

    @Test func randomBytesNeverCrash() {
        var random = SplitMix(seed: 26)
        for _ in 0..<300 {
            var bytes = (0..<(188 * Int(random.next() % 40 + 1))).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            for packet in stride(from: 0, to: bytes.count, by: 188) where random.next() % 4 != 0 { bytes[packet] = 0x47 }
            _ = try? TransportSegment.parse(bytes)
        }
    }
}
