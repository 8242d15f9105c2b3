import HLS

/// A feature newer than the declared EXT-X-VERSION (1 when absent) may be refused or misread by a player
/// that trusts the version: RFC 8216 section 7 lists what versions 2 to 7 bring, rfc8216bis section 8
/// versions 8 to 12. An EXT-X-VERSION that cannot be read (`#EXT-X-VERSION: 10`) is the reader's finding;
/// the playlist is not then judged as version 1.
struct VersionRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-version-too-low", severity: .error,
        summary: "The playlist uses a feature its EXT-X-VERSION (1 when absent) does not allow.",
        specSection: "7")

    static let tags = VersionFeatures.tags
    static let watchesSegments = false

    private var features = VersionFeatures()

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        features.note(tag, at: line, in: context)
    }

    mutating func segments(_ run: SegmentRun, in context: RuleContext) { features.note(run, in: context) }

    mutating func finish(in context: RuleContext) {
        guard let uses = features.finished() else { return }
        let declared = features.declared
        let version = declared?.version ?? 1
        let stated = declared.map { "EXT-X-VERSION:\($0.version) (line \($0.line))" } ?? "no EXT-X-VERSION, so version 1"
        let tooNew = uses.filter { $0.feature.version > version }
        // One finding per line: a key line that uses KEYFORMAT, KEYFORMATVERSIONS and SAMPLE-AES is one fix.
        for (line, features) in Dictionary(grouping: tooNew, by: \.line).sorted(by: { $0.key < $1.key }) {
            let features = features.sorted { $0.column < $1.column }
            let needed = features.map(\.feature.version).max() ?? version
            let first = features[0]
            // Each feature with the version it needs (rfc8216bis section 8), the most demanding first.
            var parts: [String] = []
            for wanted in Set(features.map(\.feature.version)).sorted(by: >) {
                let names = features.filter { $0.feature.version == wanted }.map(\.feature.name)
                let list = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names.last!
                parts.append("\(list) need\(names.count == 1 ? "s" : "") version \(wanted)")
            }
            context.report(
                Self.kind,
                parts.joined(separator: "; ") + " (rfc8216bis 8): write EXT-X-VERSION:\(needed) or higher; the playlist has \(stated)",
                at: SourceLocation(path: context.path, line: line, column: first.column, offset: first.offset + first.column - 1))
        }
    }
}

/// rfc8216bis 6.2.1: "The value of the EXT-X-VERSION tag SHOULD NOT be greater than what is required for the
/// tags and attributes in the Playlist (see Section 8)": each version above it shuts out the players that
/// stop at it, for nothing.
///
/// What "required" covers besides section 8's lists: an EXTINF over the target duration that rounds to it
/// relies on version 6's rounding (section 8's note); CAN-SKIP-UNTIL announces delta updates, which carry
/// EXT-X-SKIP (version 9, 10 with CAN-SKIP-DATERANGES), and a playlist keeps its version from one reload to
/// the next. Multivariant playlists are not judged: the sentence is about the Media Playlist the server
/// makes, and the draft lets a multivariant playlist with renditions "consider indicating an EXT-X-VERSION
/// of 4 or higher".
struct VersionTooHighRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-version-too-high", severity: .warning,
        summary: "EXT-X-VERSION is higher than the playlist's tags and attributes need.", specSection: "bis 6.2.1")

    static let tags = VersionFeatures.tags.union([.targetDuration, .serverControl])
    static let watchesSegments = false

    private var features = VersionFeatures()
    private var target: UInt64?
    private var longest = 0.0
    private var skipsUntil = false
    private var skipsDateRanges = false

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        features.note(tag, at: line, in: context)
        switch (tag.name, tag.value) {
        case (.targetDuration, .decimalInteger(let seconds)): target = seconds
        case (.extInf, .segmentDuration(let duration, _)): longest = max(longest, duration)
        case (.serverControl, .attributes(let list)):
            skipsUntil = list["CAN-SKIP-UNTIL"] != nil
            skipsDateRanges = list.attribute("CAN-SKIP-DATERANGES", is: "YES")
        default: break
        }
    }

    mutating func segments(_ run: SegmentRun, in context: RuleContext) {
        features.note(run, in: context)
        longest = max(longest, run.longest)
    }

    mutating func finish(in context: RuleContext) {
        guard context.reader.kind == .media, let uses = features.finished(), let declared = features.declared else { return }
        var needed: (version: UInt64, why: String) = (1, "")
        for use in uses where use.feature.version > needed.version {
            needed = (use.feature.version, "\(use.feature.name) (line \(use.line))")
        }
        if let target, longest > Double(target), needed.version < 6 {
            needed = (6, "an EXTINF over the target duration, which only version 6 rounds")
        }
        if skipsUntil, needed.version < (skipsDateRanges ? 10 : 9) {
            needed = (skipsDateRanges ? 10 : 9, "the delta updates CAN-SKIP-UNTIL announces")
        }
        guard declared.version > needed.version else { return }
        let advice =
            needed.version == 1
            ? "nothing in it needs more than version 1: remove the tag (or write EXT-X-VERSION:1)"
            : "the newest thing it has, \(needed.why), needs version \(needed.version): write EXT-X-VERSION:\(needed.version)"
        context.report(
            Self.kind,
            "EXT-X-VERSION:\(declared.version) is higher than this playlist needs; \(advice), so that players of the versions "
                + "between play it too (rfc8216bis 6.2.1 and 8)",
            at: SourceLocation(path: context.path, line: declared.line, column: 1, offset: declared.offset))
    }
}

/// The first use of each feature of a playlist that needs a protocol version (rfc8216bis 8), and the
/// version it declares: what both version rules read.
struct VersionFeatures {
    static let tags: Set<TagName> = [
        .version, .key, .sessionKey, .extInf, .byteRange, .iFramesOnly, .map, .define, .skip, .media, .streamInf, .iFrameStreamInf,
    ]

    /// The first use of each feature that needs a version, in the order met.
    private var uses: [Use] = []
    private(set) var declared: (version: UInt64, line: Int, offset: Int)?
    private var unreadableVersion = false
    private var isIFramesOnly = false
    private var sawFractionalDuration = false
    private var sawByteRange = false

    mutating func note(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard let name = tag.name else { return }
        func note(_ feature: Feature, _ line: PlaylistLine, _ column: Int) {
            self.note(feature, line, context.fileColumn(column, on: line))
        }
        switch name {
        case .version:
            if case .decimalInteger(let version) = tag.value {
                declared = (version, line.raw.number, line.raw.offset)
            } else {
                unreadableVersion = true
            }
        case .key, .sessionKey:
            guard name == .key, let list = tag.attributes else { return }
            // Each feature's first use is all that counts: a key-rotated playlist has a key tag a period.
            if !has(.iv), let iv = list["IV"] { note(.iv, line, iv.column) }
            if !has(.keyFormat), let format = list["KEYFORMAT"] { note(.keyFormat, line, format.column) }
            if !has(.keyFormatVersions), let versions = list["KEYFORMATVERSIONS"] {
                note(.keyFormatVersions, line, versions.column)
            }
            if !has(.sampleAES), list.attribute("METHOD", is: "SAMPLE-AES"), let method = list["METHOD"] {
                note(.sampleAES, line, method.column)
            }
        case .extInf:
            // Per-segment tags: noted once, then skipped without a look (a playlist has millions).
            guard !sawFractionalDuration, Self.hasFractionalDuration(line.content) else { return }
            sawFractionalDuration = true
            note(.fractionalDuration, line, 9)
        case .byteRange:
            guard !sawByteRange else { return }
            sawByteRange = true
            note(.byteRange, line, 1)
        case .iFramesOnly:
            isIFramesOnly = true
            note(.iFramesOnly, line, 1)
        case .map:
            note(.map, line, 1)
        case .define:
            note(.define, line, 1)
            if let queryParameter = tag.attributes?["QUERYPARAM"] { note(.queryParameter, line, queryParameter.column) }
        case .skip:
            note(.skip, line, 1)
            if let list = tag.attributes?["RECENTLY-REMOVED-DATERANGES"] { note(.skipDateRanges, line, list.column) }
        case .media:
            if let id = tag.attributes?["INSTREAM-ID"] {
                if id.text.hasPrefix("SERVICE") { note(.serviceChannel, line, id.column) }
                if let type = tag.attributes?["TYPE"], type.text != "CLOSED-CAPTIONS" { note(.instreamIDOutsideCaptions, line, id.column) }
            }
            noteRequirementAttributes(tag, line, context)
        case .streamInf, .iFrameStreamInf:
            noteRequirementAttributes(tag, line, context)
        default:
            break
        }
    }

    /// The `EXTINF`s of a run of segments, as ``note(_:at:in:)`` notes each.
    mutating func note(_ run: SegmentRun, in context: RuleContext) {
        guard !sawFractionalDuration else { return }
        guard run.extInfCount > 0 else { return }
        run.forEachEvent { event in
            guard case .extInf(let raw, _) = event, Self.hasFractionalDuration(raw.content) else { return true }
            sawFractionalDuration = true
            let line = event.line
            note(.fractionalDuration, line, context.fileColumn(9, on: line))
            return false
        }
    }

    /// The uses, once the playlist is read (EXT-X-MAP's version known); `nil` when its EXT-X-VERSION
    /// cannot be read (`#EXT-X-VERSION: 10` is the reader's finding; the playlist is not then judged as
    /// version 1).
    mutating func finished() -> [Use]? {
        guard !unreadableVersion else { return nil }
        if let index = uses.firstIndex(where: { $0.feature == .map }), !isIFramesOnly { uses[index].feature = .mapOutsideIFrames }
        return uses
    }

    /// What needs a version (RFC 8216 section 7).
    enum Feature: Hashable {
        case iv, keyFormat, keyFormatVersions, sampleAES, fractionalDuration, byteRange, iFramesOnly, define
        /// rfc8216bis section 8.
        case serviceChannel, skip, skipDateRanges, queryParameter, requirementAttribute, instreamIDOutsideCaptions
        /// EXT-X-MAP: version 5 in an I-frame playlist, 6 elsewhere (known once the playlist is read).
        case map, mapOutsideIFrames

        var name: String {
            switch self {
            case .iv: "the IV attribute"
            case .keyFormat: "the KEYFORMAT attribute"
            case .keyFormatVersions: "the KEYFORMATVERSIONS attribute"
            case .sampleAES: "METHOD=SAMPLE-AES"
            case .fractionalDuration: "a floating-point EXTINF duration"
            case .byteRange: "EXT-X-BYTERANGE"
            case .iFramesOnly: "EXT-X-I-FRAMES-ONLY"
            case .define: "EXT-X-DEFINE"
            case .map: "EXT-X-MAP"
            case .mapOutsideIFrames: "EXT-X-MAP outside an I-frame playlist"
            case .serviceChannel: "a SERVICE value of INSTREAM-ID"
            case .skip: "EXT-X-SKIP"
            case .skipDateRanges: "EXT-X-SKIP replacing date ranges (RECENTLY-REMOVED-DATERANGES)"
            case .queryParameter: "the QUERYPARAM attribute of EXT-X-DEFINE"
            case .requirementAttribute: "a REQ- attribute"
            case .instreamIDOutsideCaptions: "INSTREAM-ID on an EXT-X-MEDIA that is not CLOSED-CAPTIONS"
            }
        }

        var version: UInt64 {
            switch self {
            case .iv: 2
            case .fractionalDuration: 3
            case .byteRange, .iFramesOnly: 4
            case .keyFormat, .keyFormatVersions, .sampleAES, .map: 5
            case .mapOutsideIFrames: 6
            case .serviceChannel: 7
            case .define: 8
            case .skip: 9
            case .skipDateRanges: 10
            case .queryParameter: 11
            case .requirementAttribute: 12
            case .instreamIDOutsideCaptions: 13
            }
        }
    }

    struct Use {
        var feature: Feature
        var line: Int
        var offset: Int
        var column: Int
    }

    /// rfc8216bis 8: an attribute whose name starts with `REQ-` (REQ-VIDEO-LAYOUT) needs version 12.
    private mutating func noteRequirementAttributes(_ tag: Tag, _ line: PlaylistLine, _ context: RuleContext) {
        guard let attribute = tag.attributes?.first(where: { $0.name.hasPrefix("REQ-") }) else { return }
        note(.requirementAttribute, line, context.fileColumn(attribute.column, on: line))
    }

    private func has(_ feature: Feature) -> Bool { uses.contains { $0.feature == feature } }

    private mutating func note(_ feature: Feature, _ line: PlaylistLine, _ column: Int) {
        guard !has(feature) else { return }
        uses.append(Use(feature: feature, line: line.raw.number, offset: line.raw.offset, column: column))
    }

    /// `#EXTINF:10.0,` has a decimal point in its duration (before the comma).
    static func hasFractionalDuration(_ content: UnsafeRawBufferPointer) -> Bool {
        for byte in content.dropFirst(8) {
            if byte == UInt8(ascii: ".") { return true }
            if byte == UInt8(ascii: ",") { return false }
        }
        return false
    }
}
