import CPIX
import MP4
import Testing

/// The usage rules' semantics (CPIX 2.4, 5.4): same-type filters OR, different types AND, empty filters
/// still select their kind, an unknown filter makes the whole mapping unusable, two keys are an error.
@Suite struct UsageRuleTests {
    static let kids = (1...4).map { KeyID(String(repeating: "\($0)", count: 32))! }

    static func document(_ rules: String, periods: String = "") throws -> CPIXDocument {
        let keys = kids.map { #"<ContentKey kid="\#($0.uuid)"/>"# }.joined()
        let xml = """
            <?xml version="1.0"?>
            <CPIX xmlns="urn:dashif:org:cpix" contentId="t"><ContentKeyList>\(keys)</ContentKeyList>
            <ContentKeyPeriodList>\(periods)</ContentKeyPeriodList>
            <ContentKeyUsageRuleList>
            \(rules)
            </ContentKeyUsageRuleList></CPIX>
            """
        return try CPIXReader.parse(Array(xml.utf8), path: "rules.xml")
    }

    static func rule(_ index: Int, _ filters: String) -> String {
        #"<ContentKeyUsageRule kid="\#(kids[index].uuid)">\#(filters)</ContentKeyUsageRule>"#
    }

    static func video(_ width: Int, _ height: Int, fps: Double? = nil) -> TrackContext {
        var track = TrackContext(type: .video)
        track.pixels = width * height
        track.frameRate = fps
        return track
    }

    static func audio(_ channels: Int) -> TrackContext {
        var track = TrackContext(type: .audio)
        track.channels = channels
        return track
    }

    func selected(_ document: CPIXDocument, _ track: TrackContext) -> KeyID? {
        if case .key(let key) = document.select(for: track) { return key.kid }
        return nil
    }

    @Test func pixelBoundsAreInclusive() throws {
        let document = try Self.document(
            Self.rule(0, #"<VideoFilter maxPixels="409920"/>"#) + Self.rule(1, #"<VideoFilter minPixels="409921" maxPixels="2073600"/>"#)
                + Self.rule(2, #"<VideoFilter minPixels="2073601"/>"#))
        #expect(selected(document, Self.video(854, 480)) == Self.kids[0])
        #expect(selected(document, Self.video(1920, 1080)) == Self.kids[1])
        #expect(selected(document, Self.video(3840, 2160)) == Self.kids[2])
        #expect(selected(document, Self.audio(2)) == nil)
    }

    @Test func anEmptyFilterStillSelectsItsKind() throws {
        let document = try Self.document(Self.rule(0, "<VideoFilter/>") + Self.rule(1, "<AudioFilter/>"))
        #expect(selected(document, Self.video(1280, 720)) == Self.kids[0])
        #expect(selected(document, Self.audio(6)) == Self.kids[1])
        #expect(selected(document, TrackContext(type: .other)) == nil)
    }

    @Test func filtersOfOneKindAreAlternativesAndOfDifferentKindsAllApply() throws {
        let periods = #"<ContentKeyPeriod id="p1" index="1"/><ContentKeyPeriod id="p2" index="2"/>"#
        let document = try Self.document(
            Self.rule(0, #"<KeyPeriodFilter periodId="p1"/><KeyPeriodFilter periodId="p2"/><AudioFilter maxChannels="2"/>"#)
                + Self.rule(1, #"<KeyPeriodFilter periodId="p2"/><AudioFilter minChannels="3"/>"#), periods: periods)
        var stereo = Self.audio(2)
        stereo.periodID = "p2"
        #expect(selected(document, stereo) == Self.kids[0])
        var surround = Self.audio(6)
        surround.periodID = "p1"
        #expect(selected(document, surround) == nil)
        surround.periodID = "p2"
        #expect(selected(document, surround) == Self.kids[1])
        #expect(document.periodsInOrder.map(\.id) == ["p1", "p2"])
    }

    @Test func frameRateIsOpenBelowAndClosedAbove() throws {
        let document = try Self.document(Self.rule(0, #"<VideoFilter minFps="30" maxFps="60"/>"#))
        #expect(selected(document, Self.video(1920, 1080, fps: 30)) == nil)
        #expect(selected(document, Self.video(1920, 1080, fps: 60)) == Self.kids[0])
    }

    @Test func twoKeysForOneTrackIsAmbiguous() throws {
        let document = try Self.document(Self.rule(0, "<VideoFilter/>") + Self.rule(1, #"<VideoFilter maxPixels="500000"/>"#))
        #expect(document.select(for: Self.video(854, 480)) == .ambiguous([document.keys[0], document.keys[1]]))
        #expect(selected(document, Self.video(1920, 1080)) == Self.kids[0])
    }

    @Test func anUnknownFilterMakesTheMappingUnusable() throws {
        let document = try Self.document(Self.rule(0, "<VideoFilter/>") + Self.rule(1, #"<FutureFilter x="1"/>"#))
        guard case .unusable(let reason) = document.select(for: Self.video(1280, 720)) else {
            Issue.record("an unknown filter must make the mapping unusable")
            return
        }
        #expect(reason.contains("<FutureFilter>"))
    }

    @Test func aPeriodFilterNamingNoPeriodIsRefused() {
        #expect(throws: CPIXError.self) { try Self.document(Self.rule(0, #"<KeyPeriodFilter periodId="absent"/>"#)) }
    }
}
