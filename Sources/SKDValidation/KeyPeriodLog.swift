import HLS
import SKDKeys
import SKDReportModel
import SKDTemplate

/// A media playlist's key periods as reports show them (``Report/KeyPeriod``): a period starts at the first
/// segment, and at each segment after a key tag that changes the keys in force; each has the line and the
/// time it starts at, how long it lasts, and its keys.
struct KeyPeriodLog {
    /// The periods as met, their URIs in clear until ``redacted(_:)`` (a playlist's secrets are all known only at
    /// its end).
    private var periods: [(period: Report.KeyPeriod, uris: [String?])] = []
    /// Each FairPlay URI the periods use with the KEYID that tells its key (where one does), once per URI
    /// and key, for the title's key map (``KeyMapRule``, ``TitleKeyMap``).
    private(set) var keyUses: [KeyUse] = []
    private var seenUses = DigestTable()
    /// The line of the FairPlay key noted last: a FairPlay key still in force in a later period whose other
    /// keys rotated is `FPS-key-not-rotated`'s finding, not a second use of its URI.
    private var lastFairPlayLine: Int?
    private var keyTagSeen = true
    /// Whether the periods are kept (``ValidationOptions/recordsKeyPeriods``); the key uses are noted either way.
    private let records: Bool

    init(records: Bool = true) { self.records = records }
    private var segments = 0
    private var elapsed = 0.0
    private var duration = 0.0

    mutating func note(_ tag: Tag) {
        switch (tag.name, tag.value) {
        case (.key, _): keyTagSeen = true
        case (.extInf, .segmentDuration(let seconds, _)): duration = seconds.isFinite ? max(0, seconds) : 0
        default: break
        }
    }

    /// A segment's URI line: it opens a period when the keys changed since the one before. `truth`: what
    /// the media or a CPIX document says of the period's key (`--media`, `--cpix`), the strongest evidence.
    mutating func segment(at line: Int, reader: PlaylistReader, truth: KeyTruthContext? = nil) {
        defer {
            segments += 1
            elapsed += duration
            duration = 0
        }
        guard keyTagSeen else { return }
        keyTagSeen = false
        noteKeyUse(reader, truth: truth)
        guard records else { return }
        let inForce = reader.keyAttributesInForce
        let keys = inForce.map { attributes, _ in
            Report.KeyPeriod.Key(
                format: attributes["KEYFORMAT"]?.text ?? "identity", method: attributes["METHOD"]?.text ?? "", uri: nil,
                // (A KEYID's digits as they are, lower-cased: what its key id's `hex` would write again.)
                keyID: attributes["KEYID"].flatMap { KeyLine.normalizedKeyID($0.textBytes) }
                    ?? KeyIDInURI.named(by: attributes, variables: reader.variables)?.hex)
        }
        let uris = inForce.map { attributes, _ in attributes["URI"].map { Self.shown(reader.variables.substitute($0.text).text) } }
        // A key tag that repeats the keys in force starts no new period.
        guard periods.last.map({ $0.period.keys != keys || $0.uris != uris }) ?? true else { return }
        periods.append(
            (
                Report.KeyPeriod(
                    line: line, firstSegment: segments, startMilliseconds: Report.Measured.milliseconds(elapsed), durationMilliseconds: 0,
                    keys: keys), uris
            ))
    }

    /// The segments of a run of plain lines: each `EXTINF`'s duration and each URI, as ``note(_:)`` and
    /// ``segment(at:reader:truth:)`` note them.
    mutating func segments(_ run: SegmentRun, reader: PlaylistReader) {
        // Without the periods, only a run's first segment can be one after key tags.
        guard records else {
            if keyTagSeen, let line = run.firstURILine { segment(at: line, reader: reader) }
            return
        }
        run.forEachEvent { event in
            switch event {
            case .extInf(_, let seconds?): duration = seconds.isFinite ? max(0, seconds) : 0
            case .extInf: break
            case .uri(let line, _): segment(at: line.number, reader: reader)
            }
            return true
        }
    }

    /// Notes the FairPlay key in force at a segment after key tags, with what tells its key: key truth where
    /// it is read (the CPIX key of the period, else the one key id the init segment's encrypted tracks name),
    /// else the KEYID of its keys (the first that has one). Once per FairPlay key line, whether or not the
    /// tags read changed the keys: a FairPlay key line still in force when the other keys rotate is not a
    /// second use of its URI (``FairPlayKeyNotRotatedRule`` says that).
    private mutating func noteKeyUse(_ reader: PlaylistReader, truth: KeyTruthContext?) {
        guard
            let fairPlay = reader.firstKeyInForce(where: {
                $0.attribute("KEYFORMAT", is: FairPlay.keyFormat) && $0.attribute("METHOD", is: FairPlay.method)
            }), fairPlay.line != lastFairPlayLine, let uri = fairPlay.attributes["URI"]
        else { return }
        lastFairPlayLine = fairPlay.line
        var keyID: KeyEvidence?
        _ = reader.firstKeyInForce { key in
            keyID = key["KEYID"].flatMap { value in value.textBytes.withUnsafeBytes { KeyEvidence(keyIDAttribute: $0) } }
            return keyID != nil
        }
        let evidence = truth.flatMap { Self.keyTruth(of: fairPlay, reader: reader, truth: $0) } ?? keyID
        let text = reader.variables.substitute(uri.text).text
        let digest = KeyEvidence.digest(text)
        guard seenUses.insertIfAbsent(digest ^ (evidence?.digestWord ?? 0x5bd1_e995))
        else { return }
        keyUses.append(
            KeyUse(uri: text, digest: digest, evidence: evidence, place: KeyMap.Place(playlist: reader.path, line: fairPlay.line)))
    }

    /// The key of the period whose FairPlay key is `fairPlay`, as key truth tells it: the CPIX document's
    /// key for the playlist's track in the period, else the init segment's, where its encrypted tracks
    /// name one key id; `nil` where neither is read or says one.
    private static func keyTruth(
        of fairPlay: (attributes: AttributeList, line: Int), reader: PlaylistReader, truth: KeyTruthContext
    ) -> KeyEvidence? {
        // The document chosen as the CPIX rules choose it: by the key id the FairPlay key names.
        let named = KeyIDInURI.named(by: fairPlay.attributes, variables: reader.variables)
        if truth.checksCPIX, case .success(let key)? = truth.cpixKey(forKeyOn: fairPlay.line, naming: named) {
            return KeyEvidence(kind: .keyTruth, keyIDHex: key.kid.hex)
        }
        guard case .read(let segment, _) = truth.initSegment else { return nil }
        let kids = Set(segment.tracks.filter(\.isEncrypted).compactMap(\.defaultKID).filter { !$0.isZero })
        guard kids.count == 1 else { return nil }
        return KeyEvidence(kind: .keyTruth, keyIDHex: kids.first!.hex)
    }

    /// The periods, each lasting until the next starts (the last until the end of the playlist), with
    /// `redaction`'s secrets hidden in their URIs.
    func redacted(_ redaction: Redaction) -> [Report.KeyPeriod] {
        let end = Report.Measured.milliseconds(elapsed)
        return periods.indices.map { index in
            var period = periods[index].period
            period.durationMilliseconds = max(
                0, (index + 1 < periods.count ? periods[index + 1].period.startMilliseconds : end) - period.startMilliseconds)
            for (key, uri) in periods[index].uris.enumerated() { period.keys[key].uri = redaction.redacted(uri) }
            return period
        }
    }

    /// A URI as a report shows it: a `data:` URI (a whole pssh box in base64) cut after its media type.
    /// (Told on the UTF-8 bytes: `hasPrefix` and `firstIndex(of:)` on characters cost validate 16K instructions a
    /// key period.)
    private static func shown(_ uri: String) -> String {
        let utf8 = uri.utf8
        guard utf8.count > 64, utf8.starts(with: "data:".utf8), let comma = utf8.firstIndex(of: UInt8(ascii: ",")) else { return uri }
        return String(uri[...comma]) + "…"
    }
}
