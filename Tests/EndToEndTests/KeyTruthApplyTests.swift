import Foundation
import SKDTestSupport
import Testing

/// `apply --cpix` and `--kid-from media` on a title with per-track keys and key rotation, as a packaging
/// pipeline runs them.
@Suite("apply from key truth")
struct KeyTruthApplyTests {
    func title() throws -> Scratch {
        let scratch = try Scratch()
        try KeyTruthTitle.write(into: URL(fileURLWithPath: scratch.path(".")))
        return scratch
    }

    /// The URIs of the FairPlay keys of `playlist`, in order.
    func keyURIs(_ scratch: Scratch, _ playlist: String) throws -> [String] {
        try scratch.text("title/" + playlist).split(separator: "\n").filter { $0.hasPrefix("#EXT-X-KEY:") }.compactMap { line in
            line.firstMatch(of: /URI="([^"]*)"/).map { String($0.output.1) }
        }
    }

    @Test("each playlist's keys get the key of its track and period from the CPIX document")
    func cpixPicksPerTrackAndPeriod() throws {
        let scratch = try title()
        defer { scratch.remove() }
        let run = try SKDPackRunner.run([
            "apply", "--template", "cpix", "--cpix", scratch.path("keys.xml"), "--in-place", "--no-progress", scratch.path("title"),
        ])
        #expect(run.status == 0, "\(run.stderr)")
        for rendition in KeyTruthTitle.renditions {
            let expected = (1...2).map { "skd://" + KeyTruthTitle.uuid(KeyTruthTitle.kid(rendition.label, period: $0)) }
            #expect(try keyURIs(scratch, rendition.playlist) == expected, "\(rendition.playlist)")
        }
        // Without --session-keys the master (which has none) is left as it was.
        #expect(!(try scratch.text("title/master.m3u8")).contains("#EXT-X-SESSION-KEY"))
    }

    @Test("the reports say, per key written, its KID and where it came from; they keep to the schemas")
    func reportsCarryTheKeyID() throws {
        let scratch = try title()
        defer { scratch.remove() }
        let run = try SKDPackRunner.run([
            "apply", "--template", "cpix", "--cpix", scratch.path("keys.xml"), "--check", "--report", scratch.path("r.json"),
            "--report", scratch.path("r.xml"), scratch.path("title"),
        ])
        #expect(run.status == 1, "\(run.stderr)")
        let json = try Data(contentsOf: URL(fileURLWithPath: scratch.path("r.json")))
        #expect(try ValidateCommandTests.jsonSchema().problems(in: [UInt8](json)) == [])
        let xml = try Data(contentsOf: URL(fileURLWithPath: scratch.path("r.xml")))
        #expect(try ValidateCommandTests.xsd().problems(in: [UInt8](xml)) == [])
        let report = try JSONSerialization.jsonObject(with: json) as? [String: Any]
        #expect(report?["schemaVersion"] as? String == "1.5")
        let playlists = report?["playlists"] as? [[String: Any]] ?? []
        let uhd = try #require(playlists.first { ($0["path"] as? String)?.hasSuffix("video-2160.m3u8") == true })
        let keys = (uhd["changes"] as? [[String: Any]] ?? []).filter { $0["tag"] as? String == "EXT-X-KEY" }
        #expect(keys.map { $0["kid"] as? String } == (1...2).map { KeyTruthTitle.uuid(KeyTruthTitle.kid("UHD", period: $0)) })
        #expect(keys.allSatisfy { $0["kidSource"] as? String == "cpix" && ($0["kidFile"] as? String)?.hasSuffix("keys.xml") == true })
        #expect(String(decoding: xml, as: UTF8.self).contains(#"kidSource="cpix""#))
        // No key value of the document reaches a report.
        #expect(!String(decoding: json + xml, as: UTF8.self).contains("c2VjcmV0LWtleS12YWx1ZQ=="))
    }

    @Test("kid from the media: each period's URI names its init segment's default KID")
    func kidFromMedia() throws {
        let scratch = try title()
        defer { scratch.remove() }
        let run = try SKDPackRunner.run([
            "apply", "--template", "skd://{kid_uuid}", "--kid-from", "media", "--in-place", "--no-progress", scratch.path("title"),
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let expected = (1...2).map { "skd://" + KeyTruthTitle.uuid(KeyTruthTitle.kid("HD", period: $0)) }
        #expect(try keyURIs(scratch, "video-1080.m3u8") == expected)
    }

    /// Two renditions of one track share their keys (a second 480p variant on the same init segments): one
    /// of them rewritten alone with another URI form for the same keys, under key truth, is refused, as the
    /// renditions beside it are read with the same key truth (read without it, they told no key, and the
    /// title ended with one key, two URIs: the code review's case).
    @Test("kid from the media: a rendition alone is held to the renditions beside it by their init segments' KIDs")
    func kidFromMediaRenditionAlone() throws {
        let scratch = try title()
        defer { scratch.remove() }
        try scratch.write("title/video-480b.m3u8", try scratch.text("title/video-480.m3u8"))
        try scratch.write(
            "title/master.m3u8",
            try scratch.text("title/master.m3u8")
                + "#EXT-X-STREAM-INF:BANDWIDTH=1100000,RESOLUTION=854x480,AUDIO=\"aud\"\nvideo-480b.m3u8\n")
        let whole = try SKDPackRunner.run([
            "apply", "--template", "skd://{kid_uuid}", "--kid-from", "media", "--in-place", "--no-progress", scratch.path("title"),
        ])
        #expect(whole.status == 0, "\(whole.stderr)")
        let before = try scratch.text("title/video-480b.m3u8")
        let alone = try SKDPackRunner.run([
            "apply", "--template", "skd://keys.example.com/{kid_uuid}", "--kid-from", "media", "--in-place", "--no-progress",
            scratch.path("title/video-480b.m3u8"),
        ])
        #expect(alone.status == 1, "\(alone.stderr)")
        #expect(alone.stderr.contains("a rendition of the same title that is not part of this run"), "\(alone.stderr)")
        #expect(try scratch.text("title/video-480b.m3u8") == before)
    }

    @Test("kid from the media: a period whose EXT-X-MAP stands after its key gets that init segment's KID all the same")
    func kidFromMediaMapAfterKey() throws {
        let scratch = try title()
        defer { scratch.remove() }
        // Each period's EXT-X-MAP moved after its FairPlay key: the key waits for the period's end.
        var lines = try scratch.text("title/video-1080.m3u8").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for index in lines.indices.dropLast() where lines[index].hasPrefix("#EXT-X-MAP:") && lines[index + 1].hasPrefix("#EXT-X-KEY:") {
            lines.swapAt(index, index + 1)
        }
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: scratch.path("title/video-1080.m3u8")))
        let run = try SKDPackRunner.run([
            "apply", "--template", "skd://{kid_uuid}", "--kid-from", "media", "--in-place", "--no-progress",
            scratch.path("title/video-1080.m3u8"),
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let expected = (1...2).map { "skd://" + KeyTruthTitle.uuid(KeyTruthTitle.kid("HD", period: $0)) }
        #expect(try keyURIs(scratch, "video-1080.m3u8") == expected)
    }

    @Test("a track no rule selects is an error naming the playlist, the track and the rules considered")
    func noKeyForATrack() throws {
        let scratch = try title()
        defer { scratch.remove() }
        let document = try scratch.text("keys.xml").replacingOccurrences(
            of: #"<cpix:AudioFilter minChannels="3"/>"#, with: #"<cpix:AudioFilter minChannels="8"/>"#)
        try scratch.write("keys.xml", document)
        let before = try scratch.text("title/audio-51.m3u8")
        let run = try SKDPackRunner.run([
            "apply", "--template", "cpix", "--cpix", scratch.path("keys.xml"), "--in-place", "--no-progress", scratch.path("title"),
        ])
        #expect(run.status == 1)
        #expect(run.stderr.contains("audio-51.m3u8:6:1: error: no key of the CPIX document"), "\(run.stderr)")
        #expect(run.stderr.contains("(audio, 6 channels, period keyPeriod_1)"), "\(run.stderr)")
        #expect(run.stderr.contains("[MULTICHANNEL_AUDIO]"))
        // A title changes whole or not at all.
        #expect(try scratch.text("title/audio-51.m3u8") == before)
        #expect(try keyURIs(scratch, "video-480.m3u8") == ["skd://old-key-1", "skd://old-key-2"])
    }

    @Test("a hostile RESOLUTION in the master is no pixel count, not a crash")
    func hostileResolution() throws {
        let scratch = try title()
        defer { scratch.remove() }
        let master = try scratch.text("title/master.m3u8").replacingOccurrences(
            of: "RESOLUTION=1920x1080", with: "RESOLUTION=99999999999x99999999999")
        try scratch.write("title/master.m3u8", master)
        let run = try SKDPackRunner.run([
            "apply", "--template", "cpix", "--cpix", scratch.path("keys.xml"), "--check", "--no-progress", scratch.path("title"),
        ])
        #expect(run.status == 1)
        #expect(run.stderr.contains("video-1080.m3u8:6:1: error: no key of the CPIX document"), "\(run.stderr)")
        #expect(run.stderr.contains("(video, 99999999999x99999999999, 5000000 bit/s, period keyPeriod_1)"), "\(run.stderr)")
    }

    @Test("a document refused is said with its file and line before anything is written")
    func refusedDocument() throws {
        let scratch = try title()
        defer { scratch.remove() }
        try scratch.write("bad.xml", "<?xml version=\"1.0\"?>\n<cpix:CPIX xmlns:cpix=\"urn:dashif:org:cpix\" version=\"4.0\"/>\n")
        let run = try SKDPackRunner.run([
            "apply", "--template", "cpix", "--cpix", scratch.path("bad.xml"), "--check", scratch.path("title"),
        ])
        #expect(run.status == 2)
        #expect(run.stderr.contains("bad.xml:2: CPIX@version \"4.0\""), "\(run.stderr)")
    }

    @Test("{cpix_uri} without a document is a plan error")
    func cpixVariableWithoutDocument() throws {
        let scratch = try title()
        defer { scratch.remove() }
        let run = try SKDPackRunner.run(["apply", "--template", "cpix", "--check", scratch.path("title")])
        #expect(run.status == 2)
        #expect(run.stderr.contains("{cpix_uri} comes from a CPIX document, and none was given (--cpix)"), "\(run.stderr)")
    }
}

/// `validate --cpix --media` on the title `apply --cpix` wrote, then on the same title with its media
/// broken as packaging mistakes break it.
@Suite("validate against key truth")
struct KeyTruthValidateTests {
    func appliedTitle() throws -> Scratch {
        let scratch = try Scratch()
        try KeyTruthTitle.write(into: URL(fileURLWithPath: scratch.path(".")))
        let run = try SKDPackRunner.run([
            "apply", "--template", "cpix", "--cpix", scratch.path("keys.xml"), "--session-keys", "--in-place", "--no-progress",
            scratch.path("title"),
        ])
        #expect(run.status == 0, "\(run.stderr)")
        return scratch
    }

    func validate(_ scratch: Scratch) throws -> SKDPackRunner.Result {
        try SKDPackRunner.run(
            ["validate", "--media", "--cpix", scratch.path("keys.xml"), "--no-progress", scratch.path("title")],
            environment: ["NO_COLOR": "1"])
    }

    @Test("the applied title passes, session keys and all")
    func appliedTitlePasses() throws {
        let scratch = try appliedTitle()
        defer { scratch.remove() }
        let run = try validate(scratch)
        #expect(run.status == 0, "\(run.stdoutText)\(run.stderr)")
        #expect(!run.stdoutText.contains("MEDIA-") && !run.stdoutText.contains("CPIX-"), "\(run.stdoutText)")
        let master = try scratch.text("title/master.m3u8")
        #expect(master.components(separatedBy: "#EXT-X-SESSION-KEY:").count - 1 == 10)
    }

    @Test("two init segments swapped, one made cenc: each broken playlist named at its key line")
    func brokenMediaIsFound() throws {
        let scratch = try appliedTitle()
        defer { scratch.remove() }
        let title = URL(fileURLWithPath: scratch.path("title"))
        let sd = title.appendingPathComponent("video-480-init-p1.mp4")
        let hd = title.appendingPathComponent("video-1080-init-p1.mp4")
        let sdBytes = try Data(contentsOf: sd)
        try Data(contentsOf: hd).write(to: sd)
        try sdBytes.write(to: hd)
        let cenc = InitSegmentMaker.segment(.audio(channels: 2), scheme: "cenc", kid: KeyTruthTitle.kid("STEREO_AUDIO", period: 2))
        try Data(cenc).write(to: title.appendingPathComponent("audio-stereo-init-p2.mp4"))

        let run = try validate(scratch)
        let output = run.stdoutText + run.stderr
        #expect(run.status == 1)
        #expect(output.contains("video-480.m3u8:6:1: error: this key names KID"), "\(output)")
        #expect(output.contains("video-1080.m3u8:6:1: error: this key names KID"), "\(output)")
        #expect(output.contains("[MEDIA-kid-mismatch]"))
        #expect(output.contains("audio-stereo.m3u8:12:1: error: this FairPlay key is over"), "\(output)")
        #expect(output.contains("encrypted with 'cenc'") && output.contains("[MEDIA-scheme-not-cbcs]"))
        // The playlists themselves still agree with the key server's document.
        #expect(!output.contains("CPIX-"), "\(output)")
        #expect(!output.contains("video-2160.m3u8:") && !output.contains("audio-51.m3u8:"), "\(output)")
    }

    @Test("a session key for a key the document does not have is named in the master")
    func unknownSessionKey() throws {
        let scratch = try appliedTitle()
        defer { scratch.remove() }
        let known = KeyTruthTitle.uuid(KeyTruthTitle.kid("SD", period: 1))
        let master = try scratch.text("title/master.m3u8")
        let line = try #require(master.split(separator: "\n").firstIndex { $0.contains("EXT-X-SESSION-KEY") && $0.contains(known) }) + 1
        try scratch.write("title/master.m3u8", master.replacingOccurrences(of: known, with: "0badc0de-0000-4000-8000-000000000000"))
        let run = try validate(scratch)
        #expect(run.status == 1)
        #expect(
            run.stdoutText.contains(
                "master.m3u8:\(line):1: error: this key names KID 0badc0de-0000-4000-8000-000000000000, which the CPIX document"),
            "\(run.stdoutText)")
    }

    @Test("a session key that differs from the document's multivariant signaling is named in the master")
    func sessionKeyAgainstTheSignaling() throws {
        let scratch = try appliedTitle()
        defer { scratch.remove() }
        let known = KeyTruthTitle.uuid(KeyTruthTitle.kid("HD", period: 2))
        let master = try scratch.text("title/master.m3u8")
        let lines = master.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let index = try #require(lines.firstIndex { $0.contains("EXT-X-SESSION-KEY") && $0.contains(known) })
        var changed = lines
        changed[index] = lines[index].replacingOccurrences(
            of: #"KEYFORMATVERSIONS="1""#, with: #"KEYFORMATVERSIONS="1",IV=0x000102030405060708090A0B0C0D0E0F"#)
        try scratch.write("title/master.m3u8", changed.joined(separator: "\n"))
        let run = try validate(scratch)
        #expect(run.status == 1)
        #expect(
            run.stdoutText.contains("master.m3u8:\(index + 1):1: error: this FairPlay session key is not the one"), "\(run.stdoutText)")
        #expect(run.stdoutText.contains("IV 0x000102030405060708090a0b0c0d0e0f where it gives none"))
    }

    @Test("a key swapped in the playlist is named against the document")
    func swappedKeyIsFoundAgainstTheDocument() throws {
        let scratch = try appliedTitle()
        defer { scratch.remove() }
        let hd = KeyTruthTitle.uuid(KeyTruthTitle.kid("HD", period: 2))
        let uhd = KeyTruthTitle.uuid(KeyTruthTitle.kid("UHD", period: 2))
        let playlist = try scratch.text("title/video-2160.m3u8").replacingOccurrences(of: uhd, with: hd)
        try scratch.write("title/video-2160.m3u8", playlist)
        let run = try validate(scratch)
        let output = run.stdoutText + run.stderr
        #expect(run.status == 1)
        #expect(output.contains("video-2160.m3u8:12:1: error: this FairPlay key is not the one"), "\(output)")
        #expect(output.contains("[CPIX-signaling-mismatch]"))
        #expect(output.contains("video-2160.m3u8:12:1: error: this key names KID \(hd)"), "\(output)")
    }
}

/// A directory of CPIX documents, one per title, matched to the titles by content id.
@Suite("a directory of CPIX documents")
struct CPIXDirectoryTests {
    @Test("each title gets the keys of the document with its content id")
    func documentsMatchedByContentID() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        var expected: [String: String] = [:]
        for (number, kid) in [(1, "11111111-2222-4333-8444-555555555555"), (2, "66666666-7777-4888-8999-aaaaaaaaaaaa")] {
            let line = #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://\#(kid)",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#
            try scratch.write(
                "keys-\(number).xml",
                """
                <CPIX xmlns="urn:dashif:org:cpix" contentId="title-\(number)" version="2.3"><ContentKeyList><ContentKey kid="\(kid)"/></ContentKeyList>
                <DRMSystemList><DRMSystem kid="\(kid)" systemId="94ce86fb-07ff-4f43-adb8-93d2fa968ca2">
                <HLSSignalingData playlist="media">\(Data(line.utf8).base64EncodedString())</HLSSignalingData></DRMSystem></DRMSystemList></CPIX>
                """)
            try FileManager.default.createDirectory(atPath: scratch.path("titles/title-\(number)"), withIntermediateDirectories: true)
            try scratch.write("titles/title-\(number)/video.m3u8", CPIXKeyValueLeakTests.playlist)
            expected["title-\(number)"] = kid
        }
        try FileManager.default.createDirectory(atPath: scratch.path("keys"), withIntermediateDirectories: true)
        for number in 1...2 {
            try FileManager.default.moveItem(atPath: scratch.path("keys-\(number).xml"), toPath: scratch.path("keys/title-\(number).xml"))
        }
        let run = try SKDPackRunner.run([
            "apply", "--template", "cpix", "--cpix", scratch.path("keys"), "--path-pattern", "(?<content_id>title-[0-9]+)/",
            "--in-place", "--no-progress", scratch.path("titles"),
        ])
        #expect(run.status == 0, "\(run.stderr)")
        for (title, kid) in expected {
            #expect(try scratch.text("titles/\(title)/video.m3u8").contains(#"URI="skd://\#(kid)""#), "\(title)")
        }
        // Without a content id there is no telling which document is whose.
        let unmatched = try SKDPackRunner.run([
            "apply", "--template", "cpix", "--cpix", scratch.path("keys"), "--check", scratch.path("titles"),
        ])
        #expect(unmatched.status == 1)
        #expect(unmatched.stderr.contains("2 CPIX documents were given and this title has no content_id"), "\(unmatched.stderr)")
    }
}

/// The shipped template `cpix` writes the key server's key whole: its URI, and its METHOD,
/// KEYFORMATVERSIONS and IV where the signaling gives them.
@Suite("the cpix template writes the document's key")
struct CPIXTemplateTests {
    @Test func theSignalingsIVIsWrittenAndValidatePasses() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try KeyTruthTitle.write(into: URL(fileURLWithPath: scratch.path(".")))
        let kid = KeyTruthTitle.uuid(KeyTruthTitle.kid("HD", period: 1))
        let plain = #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://\#(kid)",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#
        let withIV =
            #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://\#(kid)",IV=0x00112233445566778899AABBCCDDEEFF,KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#
        // The media and the multivariant signaling both carry the IV, as a consistent key server writes them.
        let session = { (line: String) in line.replacingOccurrences(of: "#EXT-X-KEY:", with: "#EXT-X-SESSION-KEY:") }
        let document = try scratch.text("keys.xml")
            .replacingOccurrences(of: Data(plain.utf8).base64EncodedString(), with: Data(withIV.utf8).base64EncodedString())
            .replacingOccurrences(
                of: Data(session(plain).utf8).base64EncodedString(), with: Data(session(withIV).utf8).base64EncodedString())
        #expect(document != (try scratch.text("keys.xml")))
        try scratch.write("keys.xml", document)
        let apply = try SKDPackRunner.run([
            "apply", "--template", "cpix", "--cpix", scratch.path("keys.xml"), "--session-keys", "--in-place", "--no-progress",
            scratch.path("title"),
        ])
        #expect(apply.status == 0, "\(apply.stderr)")
        let lines = try scratch.text("title/video-1080.m3u8").split(separator: "\n")
        #expect(
            lines[5]
                == #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://\#(kid)",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1",IV=0x00112233445566778899aabbccddeeff"#
        )
        #expect(try scratch.text("title/master.m3u8").contains("IV=0x00112233445566778899aabbccddeeff"))
        let validate = try SKDPackRunner.run(["validate", "--media", "--cpix", scratch.path("keys.xml"), scratch.path("title")])
        #expect(validate.status == 0, "\(validate.stdoutText)")
    }
}
