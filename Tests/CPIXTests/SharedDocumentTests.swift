import CPIX
import Foundation
import MP4
import SKDTestSupport
import Testing

/// Every real CPIX document of the shared material: understood, or refused with its line and reason.
@Suite struct SharedDocumentTests {
    static let documents = SharedMaterial.files(in: SharedMaterial.cpix, extensions: ["xml"])

    /// The documents skdpack refuses, with the reason each deserves (cpix-notes, "quirks").
    static let refused: [String: (line: Int, reason: String)] = [
        "Dash-Industry-Forum__cpix-test-vectors__KeyRotationMultiKeySinglePeriod.xml": (
            4, "explicitIV \"f45bcebb-f0df-4a34-bf4e-c24edfcf6289\" is not base64"
        ),
        "awslabs__speke-reference-server__spekev2_verification_testsuite_spekev2_requests_general_3_negative_wrong_version_spekev2_dash_widevine.xml":
            (2, "CPIX@version \"4.0\" is not a CPIX version"),
    ]

    @Test func theMaterialIsThere() {
        #expect(SharedMaterial.cpix == nil || Self.documents.count >= 20)
    }

    @Test(arguments: documents)
    func understoodOrRefusedWithALine(_ url: URL) {
        let expected = Self.refused[url.lastPathComponent]
        do {
            let document = try CPIXReader.read(url.path)
            #expect(expected == nil, "\(url.lastPathComponent) was read; it should be refused: \(expected!.reason)")
            let row = SharedMaterial.sources(in: SharedMaterial.cpix!).first { $0["name"] == url.lastPathComponent }
            if let count = row?["n_keys"].flatMap({ Int($0) }) { #expect(document.keys.count == count, "\(url.lastPathComponent)") }
        } catch {
            #expect(error.line == expected?.line, "\(error)")
            #expect(error.description.hasPrefix(url.path + ":\(error.line): "))
            #expect(expected.map { error.reason.hasPrefix($0.reason) } == true, "\(error)")
        }
    }

    @Test(.enabled(if: SharedMaterial.cpix != nil, Comment(rawValue: SharedMaterial.skipReason)))
    func theFairPlaySignalingOfAKeyServerResponseIsDecoded() throws {
        let url = try #require(Self.documents.first { $0.lastPathComponent.contains("livesim2") })
        let document = try CPIXReader.read(url.path)
        let fairPlay = try #require(
            document.drmSystem(KeyID("94ce86fb-07ff-4f43-adb8-93d2fa968ca2")!, kid: KeyID("01234567-89ab-cdef-0123-456789abcdef")!))
        #expect(
            fairPlay.signaling(for: .media)?.text
                == #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://01234567-89ab-cdef-0123-456789abcdef:0123456789abcdef0123456789abcdef",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#
        )
        #expect(fairPlay.signaling(for: .multivariant)?.text.hasPrefix("#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI=\"skd://") == true)
        #expect(document.keys.first?.explicitIV.map(KeyID.hex) == "0123456789abcdef0123456789abcdef")
        #expect(document.keys.first?.commonEncryptionScheme == "cbcs")
    }

    @Test(.enabled(if: SharedMaterial.cpix != nil, Comment(rawValue: SharedMaterial.skipReason)))
    func speke2PresetsMapSDAndHDByPixelsAndAudioByChannels() throws {
        let url = try #require(Self.documents.first { $0.lastPathComponent.contains("preset_shared_video") })
        let document = try CPIXReader.read(url.path)
        func kid(_ track: TrackContext) -> String? {
            if case .key(let key) = document.select(for: track) { return key.kid.uuid }
            return nil
        }
        var sd = TrackContext(type: .video)
        sd.pixels = 1024 * 576
        var hd = TrackContext(type: .video)
        hd.pixels = 1024 * 576 + 1
        var stereo = TrackContext(type: .audio)
        stereo.channels = 2
        var surround = TrackContext(type: .audio)
        surround.channels = 6
        let kids = [sd, hd, stereo, surround].map(kid)
        #expect(kids.allSatisfy { $0 != nil })
        #expect(Set(kids.compactMap { $0 }).count == 4)
    }
}
