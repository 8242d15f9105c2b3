import Foundation
import MP4
import SKDTestSupport
import Testing

/// Every real init segment of the shared material, read as SOURCES.tsv describes it (its columns were
/// filled with other tools: mp4dump, pymp4).
@Suite struct SharedMediaTests {
    static let rows =
        SharedMaterial.media.map { SharedMaterial.sources(in: $0) }?.filter {
            !($0["name"] ?? "").hasSuffix(".m3u8")
        } ?? []

    @Test func theMaterialIsThere() {
        #expect(SharedMaterial.media == nil || Self.rows.count >= 15)
    }

    @Test(arguments: rows)
    func schemeAndKeyIDAsListed(_ row: [String: String]) throws {
        let path = SharedMaterial.media!.appendingPathComponent(row["name"]!).path
        let segment = try InitSegmentFile.read(path)
        let encrypted = segment.tracks.filter(\.isEncrypted)
        let schemes = (row["scheme(schm)"] ?? "").split(separator: ",").map(String.init)
        if schemes.first?.hasPrefix("none") == true {
            #expect(encrypted.isEmpty, "\(path)")
            return
        }
        #expect(encrypted.map(\.scheme) == schemes, "\(path)")
        let kids = (row["default_KID(tenc)"] ?? "").split(separator: ",").map(String.init)
        #expect(encrypted.map { $0.defaultKID?.uuid } == kids, "\(path)")
        let formats = (row["original_format(frma)"] ?? "").split(separator: ",").map(String.init)
        #expect(encrypted.map(\.originalFormat) == formats, "\(path)")
        let ivSizes = (row["per_sample_IV_size"] ?? "").split(separator: ",").map { UInt8($0) }
        #expect(encrypted.map(\.perSampleIVSize) == ivSizes, "\(path)")
        if let pattern = row["pattern(crypt:skip)"], pattern != "-" {
            #expect(encrypted.map { "\($0.pattern!.crypt):\($0.pattern!.skip)" } == [pattern], "\(path)")
        }
        if let constant = row["constant_IV"], constant.hasPrefix("yes:") {
            #expect(encrypted.map { $0.constantIV.map(KeyID.hex) } == [String(constant.dropFirst(4))], "\(path)")
        }
        let systems = row["pssh_systems"] ?? "none"
        #expect(segment.protectionSystems.isEmpty == (systems == "none"), "\(path)")
        #expect(segment.topLevelBoxes.joined(separator: "+") == row["top_boxes"], "\(path)")
    }
}
