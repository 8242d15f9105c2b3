import Foundation
import MP4
import Testing

/// Hostile and broken init segments: every one is a located error, never a trap or a read past the end.
@Suite struct MalformedBoxTests {
    /// A box of `type` holding `payload`.
    static func box(_ type: String, _ payload: [UInt8] = []) -> [UInt8] {
        be32(UInt32(8 + payload.count)) + Array(type.utf8) + payload
    }

    static func be32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }

    static let ftyp = box("ftyp", Array("isom".utf8) + be32(0))

    func failure(_ bytes: [UInt8]) -> MP4FormatError? {
        do {
            _ = try InitSegment.parse(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func aSizePastTheEndNamesTheBoxAndItsOffset() {
        let bytes = Self.ftyp + Self.be32(4000) + Array("moov".utf8) + [0, 0]
        let error = failure(bytes)
        #expect(error?.offset == 16)
        #expect(error?.boxPath == ["moov"])
        #expect(error?.description.contains("runs past the end of the file") == true)
    }

    @Test func aSizeSmallerThanTheHeaderIsRefused() {
        let bytes = Self.ftyp + Self.be32(3) + Array("moov".utf8)
        #expect(failure(bytes)?.reason.contains("smaller than its own header") == true)
    }

    @Test func aFourGigabyteClaimIsRefusedWithoutReading() {
        let large: [UInt8] = Self.be32(1) + Array("moov".utf8) + [0, 0, 0, 1, 0, 0, 0, 0]
        let error = failure(Self.ftyp + large)
        #expect(error?.reason.contains("4294967296") == true)
    }

    @Test func sizeZeroRunsToTheEndOfTheFile() throws {
        let moov: [UInt8] = Self.be32(0) + Array("moov".utf8) + Self.box("free")
        let segment = try InitSegment.parse(Self.ftyp + moov)
        #expect(segment.topLevelBoxes == ["ftyp", "moov"])
    }

    @Test func aTruncatedTencNamesTheField() {
        let tenc = Self.box("tenc", [1, 0, 0, 0, 0, 0x19, 1, 0] + [UInt8](repeating: 0xAB, count: 5))
        let bytes = Self.ftyp + Self.trak(entry: Self.encryptedVideoEntry(tenc: tenc))
        let error = failure(bytes)
        #expect(error?.boxPath.suffix(3) == ["sinf", "schi", "tenc"])
        #expect(error?.reason.contains("default_KID") == true)
    }

    @Test func aKIDCountOfFourBillionIsRefused() {
        let pssh = Self.box("pssh", [1, 0, 0, 0] + [UInt8](repeating: 1, count: 16) + Self.be32(.max))
        let error = failure(Self.ftyp + Self.box("moov", pssh))
        #expect(error?.boxPath == ["moov", "pssh"])
        #expect(error?.reason.contains("KID_count 4294967295") == true)
    }

    @Test func notAnInitSegment() {
        #expect(failure(Array("#EXTM3U\n#EXT-X-VERSION:3\n".utf8))?.description.contains("offset 0") == true)
        #expect(failure(Self.ftyp)?.reason.contains("no 'moov' box") == true)
        #expect(failure([])?.reason.contains("no 'moov' box") == true)
    }

    @Test func controlCharactersInABoxTypeAreEscaped() {
        let bytes = Self.be32(8) + [0x0A, 0x1B, 0x41, 0x42]
        let text = failure(bytes)?.description ?? ""
        #expect(text.contains("\\x0a\\x1bAB"))
        #expect(!text.contains("\n"))
    }

    @Test func aByteRangeOffsetIsAddedToEveryOffset() {
        let bytes = Self.ftyp + Self.be32(4000) + Array("moov".utf8)
        #expect(
            throws: MP4FormatError(offset: 1016, boxPath: ["moov"], reason: "its size 4000 runs past the end of the file (8 bytes left)")
        ) {
            try InitSegment.parse(bytes, baseOffset: 1000)
        }
    }

    /// A video track whose only sample entry is `entry`.
    static func trak(entry: [UInt8]) -> [UInt8] {
        let hdlr = box("hdlr", [0, 0, 0, 0] + be32(0) + Array("vide".utf8) + [UInt8](repeating: 0, count: 12))
        let stsd = box("stsd", [0, 0, 0, 0] + be32(1) + entry)
        return box("moov", box("trak", box("mdia", hdlr + box("minf", box("stbl", stsd)))))
    }

    static func encryptedVideoEntry(tenc: [UInt8]) -> [UInt8] {
        let sinf = box(
            "sinf", box("frma", Array("avc1".utf8)) + box("schm", [0, 0, 0, 0] + Array("cbcs".utf8) + be32(0x10000)) + box("schi", tenc))
        return box("encv", [UInt8](repeating: 0, count: 78) + sinf)
    }
}

/// Reading init segments from files: a byte range of a larger file, and the size limit.
@Suite struct InitSegmentFileTests {
    static let segment = MalformedBoxTests.ftyp + MalformedBoxTests.trak(entry: MalformedBoxTests.encryptedVideoEntry(tenc: tenc))
    static let tenc = MalformedBoxTests.box("tenc", [1, 0, 0, 0, 0, 0x19, 1, 0] + [UInt8](repeating: 0xAB, count: 16) + [0])

    func file(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("skdpack-init-\(UUID().uuidString).mp4").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        return path
    }

    @Test func aByteRangeReadsJustThatRange() throws {
        let path = try file([UInt8](repeating: 0x55, count: 1000) + Self.segment + [UInt8](repeating: 0x66, count: 500))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let segment = try InitSegmentFile.read(path, range: (Self.segment.count, 1000))
        #expect(segment.tracks.first?.defaultKID == KeyID(bytes: [UInt8](repeating: 0xAB, count: 16)))
        #expect(throws: InitSegmentFile.Failure.self) { try InitSegmentFile.read(path) }
        do {
            _ = try InitSegmentFile.read(path, range: (600, 1200))
        } catch {
            #expect(error.problem == .rangeOutside(fileSize: 1000 + Self.segment.count + 500))
        }
    }

    @Test func aFileOverTheLimitIsRefusedBeforeItIsRead() throws {
        let path = try file(Self.segment)
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try InitSegmentFile.read(path, limit: 100)
            Issue.record("a file over the limit was read")
        } catch {
            #expect(error.problem == .tooLarge(size: Self.segment.count, limit: 100))
            #expect(error.description.contains("more than the 100-byte limit"))
        }
        #expect(try InitSegmentFile.read(path, limit: Self.segment.count).tracks.count == 1)
    }

    @Test func aMissingFileSaysWhy() {
        do {
            _ = try InitSegmentFile.read("/nonexistent/init.mp4")
        } catch {
            #expect(error.description == "/nonexistent/init.mp4: cannot be read: No such file or directory")
        }
    }
}

/// Audio sample entries in their three layouts: ISO (version 0), QuickTime sound description version 1
/// (16 bytes more), and ISO AudioSampleEntryV1 (version 1, no more): the protection is found in each.
@Suite struct AudioSampleEntryTests {
    static let kid = [UInt8](repeating: 0x5A, count: 16)

    static func segment(version: UInt8, extra: Int) -> [UInt8] {
        let tenc = MalformedBoxTests.box("tenc", [1, 0, 0, 0, 0, 0, 1, 0] + kid + [16] + kid)
        let sinf = MalformedBoxTests.box(
            "sinf",
            MalformedBoxTests.box("frma", Array("mp4a".utf8))
                + MalformedBoxTests.box("schm", [0, 0, 0, 0] + Array("cbcs".utf8) + MalformedBoxTests.be32(0x10000))
                + MalformedBoxTests.box("schi", tenc))
        let fields: [UInt8] =
            [0, 0, 0, 0, 0, 0, 0, 1] + [0, version] + [UInt8](repeating: 0, count: 6) + [0, 6, 0, 16, 0, 0, 0, 0, 0xBB, 0x80, 0, 0]
        let entry = MalformedBoxTests.box("enca", fields + [UInt8](repeating: 0, count: extra) + sinf)
        let hdlr = MalformedBoxTests.box(
            "hdlr", [0, 0, 0, 0] + MalformedBoxTests.be32(0) + Array("soun".utf8) + [UInt8](repeating: 0, count: 12))
        let stsd = MalformedBoxTests.box("stsd", [0, 0, 0, 0] + MalformedBoxTests.be32(1) + entry)
        let trak = MalformedBoxTests.box(
            "trak", MalformedBoxTests.box("mdia", hdlr + MalformedBoxTests.box("minf", MalformedBoxTests.box("stbl", stsd))))
        return MalformedBoxTests.ftyp + MalformedBoxTests.box("moov", trak)
    }

    @Test(arguments: [(UInt8(0), 0), (1, 16), (1, 0), (2, 36)])
    func protectionIsFoundInEveryLayout(version: UInt8, extra: Int) throws {
        let track = try #require(try InitSegment.parse(Self.segment(version: version, extra: extra)).tracks.first)
        #expect(track.scheme == "cbcs")
        #expect(track.defaultKID == KeyID(bytes: Self.kid))
        #expect(track.channelCount == 6)
    }
}

/// A protected sample entry whose `sinf` lacks `schm` (as some PIFF files have it) is still protected.
@Test func aProtectedEntryWithoutASchemeIsStillEncrypted() throws {
    let tenc = MalformedBoxTests.box("tenc", [0, 0, 0, 0, 0, 0, 1, 8] + [UInt8](repeating: 7, count: 16))
    let sinf = MalformedBoxTests.box("sinf", MalformedBoxTests.box("frma", Array("avc1".utf8)) + MalformedBoxTests.box("schi", tenc))
    let entry = MalformedBoxTests.box("encv", [UInt8](repeating: 0, count: 78) + sinf)
    let track = try #require(try InitSegment.parse(MalformedBoxTests.ftyp + MalformedBoxTests.trak(entry: entry)).tracks.first)
    #expect(track.scheme == nil)
    #expect(track.isEncrypted)
    #expect(track.defaultKID == KeyID(bytes: [UInt8](repeating: 7, count: 16)))
}
