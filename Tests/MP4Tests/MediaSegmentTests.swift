import Foundation
import MP4
import SKDTestSupport
import Testing

/// The real fMP4 media segments of the shared material, read by ``MediaSegmentFile`` and held to what
/// ffprobe reports of the same samples: per track the number of samples, their total duration (the last
/// packet's decode time and duration from the first's) and whether the first is a key frame. An encrypted
/// segment is held to its decrypted twin where the source gives one: ffprobe reads clear media; the reader
/// reads the encrypted bytes.
@Suite struct RealMediaSegmentTests {
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        /// The init segment's file and byte range (`nil`: the whole file).
        var initFile: String
        var initRange: (length: Int, offset: Int)?
        var segmentFile: String
        var segmentRange: (length: Int, offset: Int)?
        /// What ffprobe reads instead of init + segment (a decrypted twin holding both), if anything.
        var reference: String?
        var description: String { name }
    }

    static let cases: [Case] = {
        guard SharedMaterial.segments != nil else { return [] }
        var cases = [
            Case(name: "mp4ff cbcs video", initFile: "mp4ff/cbcs.mp4", segmentFile: "mp4ff/cbcs.mp4", reference: "mp4ff/cbcsdec.mp4"),
            Case(
                name: "mp4ff cbcs audio", initFile: "mp4ff/cbcs_audio.mp4", segmentFile: "mp4ff/cbcs_audio.mp4",
                reference: "mp4ff/cbcs_audiodec.mp4"),
            Case(name: "mp4ff cenc without seig", initFile: "mp4ff/init_cenc_test.m4i", segmentFile: "mp4ff/seg_cenc_no_seig.m4v"),
        ]
        let title = "shaka-player-clear-encrypted-hls/"
        for (initName, segments) in [
            ("audio-init-clear.mp4", ["audio-s1.mp4", "audio-s2.mp4"]),
            ("audio-init-encrypted.mp4", ["audio-enc-s1.mp4", "audio-enc-s2.mp4"]),
            ("video-init-clear.mp4", ["video-s1.mp4", "video-s2.mp4"]), ("video-init-encrypted.mp4", ["video-enc-s2.mp4"]),
        ] {
            for segment in segments {
                cases.append(Case(name: "shaka FairPlay title " + segment, initFile: title + initName, segmentFile: title + segment))
            }
        }
        // shaka-packager's byte ranges of one file, as its playlist lists them.
        var offset = 1171
        for (number, length) in [136434, 112920, 31488, 110305, 52472, 141347, 47123, 66647, 78881, 51869].enumerated() {
            cases.append(
                Case(
                    name: "shaka-packager byte range \(number + 1)", initFile: "shaka-player-hls-sample-aes/video.mp4",
                    initRange: (1019, 0),
                    segmentFile: "shaka-player-hls-sample-aes/video.mp4", segmentRange: (length, offset)))
            offset += length
        }
        return cases
    }()

    @Test func theMaterialIsThere() {
        #expect(SharedMaterial.segments == nil || Self.cases.count == 20, Comment(rawValue: SharedMaterial.skipReason))
    }

    /// audio-enc-s3.mp4 of the FairPlay title is cut short: its `mdat` announces 1,728 bytes more than the
    /// file has (the source's own file; ffprobe reads it without a word). The reader says where.
    @Test(.enabled(if: SharedMaterial.segments != nil, Comment(rawValue: SharedMaterial.skipReason)))
    func theCutFairPlaySegmentIsFoundOut() throws {
        let folder = try #require(SharedMaterial.segments)
        let path = folder.appendingPathComponent("shaka-player-clear-encrypted-hls/audio-enc-s3.mp4").path
        #expect {
            _ = try MediaSegmentFile.read(path)
        } throws: { error in
            guard case .malformed(let format) = (error as? MediaSegmentFile.Failure)?.problem else { return false }
            return format.offset == 2474 && format.boxPath == ["mdat"] && format.reason.contains("120733")
        }
    }

    @Test(.enabled(if: FFprobe.executable != nil, Comment(rawValue: FFprobe.skipReason)), arguments: cases)
    func samplesAsFFprobeCountsThem(_ item: Case) throws {
        let folder = SharedMaterial.segments!
        let initPath = folder.appendingPathComponent(item.initFile).path
        let initSegment = try InitSegmentFile.read(initPath, range: item.initRange)
        let segment = try MediaSegmentFile.read(
            folder.appendingPathComponent(item.segmentFile).path, range: item.segmentRange, defaults: initSegment.fragmentDefaults)
        let packets = try FFprobe.packets(try reference(item, in: folder))
        #expect(!segment.fragments.isEmpty)
        // ffprobe numbers streams in the order of the init segment's tracks (a track may list several sample entries).
        var trackIDs: [UInt32] = []
        for track in initSegment.tracks where !trackIDs.contains(track.trackID!) { trackIDs.append(track.trackID!) }
        for (stream, trackID) in trackIDs.enumerated() {
            let runs = segment.runs(of: trackID)
            let ours = packets.filter { $0.stream == stream }
            #expect(runs.reduce(0) { $0 + $1.sampleCount } == ours.count, "\(item.name) track \(trackID)")
            guard let first = ours.first, let last = ours.last, let start = first.dts, let end = last.dts, let duration = last.duration
            else {
                continue
            }
            #expect(runs.reduce(UInt64(0)) { $0 + $1.duration! } == UInt64(end + duration - start), "\(item.name) track \(trackID)")
            #expect(runs.first?.startsWithSyncSample == first.isKey, "\(item.name) track \(trackID)")
        }
        // Never the sample data: what a segment costs is its boxes of sample descriptions and its headers.
        #expect(segment.bytesRead < segment.size / 4 || segment.size < 8192, "\(item.name): \(segment.bytesRead) of \(segment.size)")
    }

    /// The file ffprobe reads: the twin, or the init segment's bytes followed by the segment's.
    private func reference(_ item: Case, in folder: URL) throws -> URL {
        if let twin = item.reference { return folder.appendingPathComponent(twin) }
        if item.initFile == item.segmentFile, item.initRange == nil { return folder.appendingPathComponent(item.segmentFile) }
        func bytes(_ file: String, _ range: (length: Int, offset: Int)?) throws -> Data {
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            guard let range else { return data }
            return data.subdata(in: range.offset..<(range.offset + range.length))
        }
        let joined = FileManager.default.temporaryDirectory.appendingPathComponent("skdpack-ffprobe-\(UUID().uuidString).mp4")
        try (try bytes(item.initFile, item.initRange) + (try bytes(item.segmentFile, item.segmentRange))).write(to: joined)
        return joined
    }

    /// What the sources say of their encryption: mp4ff's cbcs video is 1:9 and its audio whole blocks, with
    /// every sample in `senc` with subsamples; the FairPlay title's encrypted audio is cbcs under its
    /// `tenc` key; a fragment's own `seig` names the key of its samples.
    @Test(.enabled(if: SharedMaterial.segments != nil, Comment(rawValue: SharedMaterial.skipReason)))
    func encryptionAsTheSourcesDescribeIt() throws {
        let folder = try #require(SharedMaterial.segments)
        let video = try InitSegmentFile.read(folder.appendingPathComponent("mp4ff/cbcs.mp4").path)
        #expect(video.tracks[0].scheme == "cbcs" && video.tracks[0].pattern?.crypt == 1 && video.tracks[0].pattern?.skip == 9)
        #expect(video.tracks[0].codec == "avc1.64001f")
        let fragments = try MediaSegmentFile.read(folder.appendingPathComponent("mp4ff/cbcs.mp4").path, defaults: video.fragmentDefaults)
        for run in fragments.runs(of: 1) {
            #expect(run.sampleEncryption?.sampleCount == run.sampleCount && run.sampleEncryption?.hasSubsamples == true)
            #expect(run.protectedSampleCount(trackDefault: true) == run.sampleCount)
        }
        let audio = try InitSegmentFile.read(folder.appendingPathComponent("mp4ff/cbcs_audio.mp4").path)
        #expect(audio.tracks[0].codec == "mp4a.40.2" && audio.tracks[0].pattern?.crypt == 0 && audio.tracks[0].pattern?.skip == 0)

        let encrypted = try InitSegmentFile.read(
            folder.appendingPathComponent("shaka-player-clear-encrypted-hls/audio-init-encrypted.mp4").path)
        let segment = try MediaSegmentFile.read(
            folder.appendingPathComponent("shaka-player-clear-encrypted-hls/audio-enc-s1.mp4").path, defaults: encrypted.fragmentDefaults)
        let track = encrypted.tracks[0]
        #expect(track.scheme == "cbcs")
        let run = try #require(segment.fragments.first?.tracks.first)
        #expect(run.keyIDs(trackDefault: track.defaultKID, trackProtected: track.isProtected == true) == [track.defaultKID!])
        #expect(run.protectedSampleCount(trackDefault: true) == run.sampleCount)
        let clear = try MediaSegmentFile.read(folder.appendingPathComponent("shaka-player-clear-encrypted-hls/audio-s1.mp4").path)
        #expect(clear.fragments.allSatisfy { $0.tracks.allSatisfy { $0.sampleEncryption == nil && $0.auxiliaryInfoCount == nil } })

        // moof_enc.m4s: its `sgpd` 'seig' entry, read by hand from the bytes, is what the reader reports.
        let path = folder.appendingPathComponent("mp4ff/moof_enc.m4s")
        let bytes = [UInt8](try Data(contentsOf: path))
        let sgpd = try #require(Self.offset(of: Array("sgpd".utf8), in: bytes))
        // type, version/flags, grouping_type, (v1) default_length, entry_count, then reserved, pattern, isProtected, IV size, KID.
        let kidStart = sgpd + 4 + 4 + 4 + 4 + 4 + 4
        let kid = KeyID(bytes: bytes[kidStart..<(kidStart + 16)])!
        let fragment = try MediaSegmentFile.read(path.path)
        let group = try #require(fragment.fragments.first?.tracks.first?.encryptionGroups.first)
        #expect(group.keyID == kid && group.isProtected)
        #expect(fragment.fragments[0].tracks[0].keyIDs(trackDefault: nil, trackProtected: false) == [kid])
    }

    static func offset(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}

/// Media segments that lie: each refused with its offset and box path, never a crash or a read past the end.
@Suite struct MalformedMediaSegmentTests {
    /// A `moof` with one `traf` (`tfhd`, `trun` of `count` samples with durations) and an `mdat`.
    static func segment(count: UInt32, trunPayloadSamples: Int) -> [UInt8] {
        func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { be32(UInt32(8 + payload.count)) + Array(type.utf8) + payload }
        func be32(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        let tfhd = box("tfhd", be32(0x02_0000) + be32(1))
        let trun = box("trun", be32(0x100) + be32(count) + Array(repeating: 0, count: 4 * trunPayloadSamples))
        let moof = box("moof", box("mfhd", be32(0) + be32(1)) + box("traf", tfhd + trun))
        return moof + box("mdat", [1, 2, 3])
    }

    @Test func aSampleCountBeyondTheBoxIsRefusedWithItsPath() {
        #expect(throws: MP4FormatError.self) { try MediaSegment.parse(Self.segment(count: 0xFFFF_FFFF, trunPayloadSamples: 2)) }
        do {
            _ = try MediaSegment.parse(Self.segment(count: 1000, trunPayloadSamples: 2))
            Issue.record("accepted")
        } catch {
            #expect(error.boxPath == ["moof", "traf", "trun"])
            #expect(error.reason.contains("sample_count 1000"))
        }
        #expect((try? MediaSegment.parse(Self.segment(count: 2, trunPayloadSamples: 2)))?.fragments[0].tracks[0].sampleCount == 2)
    }

    @Test func everyTruncationIsAFindingNotACrash() {
        let bytes = Self.segment(count: 2, trunPayloadSamples: 2)
        // Cut anywhere but after the `moof` (a segment of one `moof` holds together).
        for length in 0..<bytes.count where length != bytes.count - 11 {
            let cut = Array(bytes[..<length])
            #expect(throws: MP4FormatError.self, "cut at \(length)") { try MediaSegment.parse(cut) }
        }
    }
}
