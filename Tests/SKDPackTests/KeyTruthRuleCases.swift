import CPIX
import Foundation
import HLS
import MP4
import SKDKeys
import SKDPack
import SKDTestSupport
import SKDValidation

/// The init segments and CPIX documents the `MEDIA` and `CPIX` rule cases read, written once into a
/// folder of their own: the playlists of those cases are validated as if they were in it.
enum KeyTruthFixtures {
    static let kid = Array((0..<16).map { UInt8($0 * 17) })
    static let otherKID = Array((0..<16).map { UInt8(255 - $0) })
    static var kidUUID: String { KeyID(bytes: kid)!.uuid }
    static var otherUUID: String { KeyID(bytes: otherKID)!.uuid }

    /// The cbcs video init segment the rule cases name as `cbcs.mp4`.
    static let initSegment = InitSegmentMaker.segment(.video(width: 1280, height: 720), scheme: "cbcs", kid: kid)

    static let directory: String = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("skdpack-rules-\(getpid())").path
        try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // Gone with the test process (the cases read it until the last test).
        atexit { try? FileManager.default.removeItem(atPath: KeyTruthFixtures.directory) }
        let video = InitSegmentMaker.Track.video(width: 1280, height: 720)
        let files: [String: [UInt8]] = [
            "cbcs.mp4": InitSegmentMaker.segment(video, scheme: "cbcs", kid: kid),
            "cenc.mp4": InitSegmentMaker.segment(video, scheme: "cenc", kid: kid),
            "clear.mp4": InitSegmentMaker.segment(video, scheme: nil, kid: kid),
            "zero.mp4": InitSegmentMaker.segment(video, scheme: "cbcs", kid: [UInt8](repeating: 0, count: 16)),
            "pssh.mp4": InitSegmentMaker.segment(video, scheme: "cbcs", kid: kid, psshSystems: [Array(ProtectionSystem.widevine.bytes)]),
        ]
        for (name, bytes) in files.merging(SegmentRuleCases.files, uniquingKeysWith: { first, _ in first }) {
            _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: Data(bytes))
        }
        return folder
    }()

    /// A document with the one key, FairPlay signaling `skd://<kid>`, and `rules` as its usage rules.
    static func document(rules: String = "") -> CPIXDocument {
        let line = #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://\#(kidUUID)",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#
        let xml = """
            <CPIX xmlns="urn:dashif:org:cpix" contentId="t"><ContentKeyList><ContentKey kid="\(kidUUID)"/></ContentKeyList>
            <DRMSystemList><DRMSystem kid="\(kidUUID)" systemId="94ce86fb-07ff-4f43-adb8-93d2fa968ca2">
            <HLSSignalingData playlist="media">\(Data(line.utf8).base64EncodedString())</HLSSignalingData></DRMSystem></DRMSystemList>
            <ContentKeyUsageRuleList>\(rules)</ContentKeyUsageRuleList></CPIX>
            """
        return try! CPIXReader.parse(Array(xml.utf8), path: "keys.xml")
    }

    static func options(media: Bool = true, segments: Bool = false, document: CPIXDocument? = nil) -> ValidationOptions {
        var options = ValidationOptions()
        options.checksMedia = media
        options.checksSegments = segments
        options.keyTruth = KeyTruth(documents: document.map { [$0] } ?? [])
        return options
    }

    /// A FairPlay key naming `uri`.
    static func key(_ uri: String, extra: String = "") -> String {
        #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="\#(uri)"\#(extra),KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#
    }

    static func map(_ file: String) -> String { #"#EXT-X-MAP:URI="\#(file)""# }

    /// One case per `MEDIA` and `CPIX` rule.
    static var cases: [RuleCase] {
        let right = key("skd://\(kidUUID)")
        return [
            RuleCase(
                rule: "MEDIA-init-unreadable", severity: .error, line: 4, column: 1,
                broken: fmp4(map("missing.mp4"), right), correct: fmp4(map("cbcs.mp4"), right), options: options(), inFixtures: true),
            RuleCase(
                rule: "MEDIA-scheme-not-cbcs", severity: .error, line: 5, column: 1,
                broken: fmp4(map("cenc.mp4"), right), correct: fmp4(map("cbcs.mp4"), right), options: options(), inFixtures: true),
            RuleCase(
                rule: "MEDIA-encryption-mismatch", severity: .error, line: 5, column: 1,
                broken: fmp4(map("clear.mp4"), right), correct: fmp4(map("cbcs.mp4"), right), options: options(), inFixtures: true),
            RuleCase(
                rule: "MEDIA-kid-mismatch", severity: .error, line: 5, column: 1,
                broken: fmp4(map("cbcs.mp4"), key("skd://\(otherUUID)")), correct: fmp4(map("cbcs.mp4"), right), options: options(),
                inFixtures: true),
            RuleCase(
                rule: "MEDIA-kid-zero", severity: .warning, line: 4, column: 1,
                broken: fmp4(map("zero.mp4"), right), correct: fmp4(map("cbcs.mp4"), right), options: options(), inFixtures: true),
            RuleCase(
                rule: "MEDIA-pssh-unannounced", severity: .info, line: 4, column: 1,
                broken: fmp4(map("pssh.mp4"), right), correct: fmp4(map("cbcs.mp4"), right), options: options(), inFixtures: true),
            RuleCase(
                rule: "CPIX-no-key", severity: .error, line: 5, column: 1,
                broken: fmp4(map("cbcs.mp4"), right), correct: fmp4(map("cbcs.mp4"), right),
                options: options(
                    media: false, document: document(rules: #"<ContentKeyUsageRule kid="\#(kidUUID)"><VideoFilter/></ContentKeyUsageRule>"#)
                ),
                correctOptions: options(media: false, document: document()), inFixtures: true),
            RuleCase(
                rule: "CPIX-signaling-mismatch", severity: .error, line: 5, column: 1,
                broken: fmp4(map("cbcs.mp4"), key("skd://\(kidUUID)", extra: ",IV=0x00000000000000000000000000000001")),
                correct: fmp4(map("cbcs.mp4"), right), options: options(media: false, document: document()), inFixtures: true),
            RuleCase(
                rule: "CPIX-kid-unknown", severity: .error, line: 5, column: 1,
                broken: fmp4(map("cbcs.mp4"), key("skd://\(otherUUID)")), correct: fmp4(map("cbcs.mp4"), right),
                options: options(media: false, document: document()), inFixtures: true),
        ]
    }

    /// An fMP4 media playlist (version 6) with `lines` after its header.
    static func fmp4(_ lines: String...) -> String {
        "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:10\n" + lines.map { $0 + "\n" }.joined()
            + "#EXTINF:10,\na.m4s\n#EXTINF:10,\nb.m4s\n#EXT-X-ENDLIST\n"
    }
}
