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

    static let tags: Set<TagName>? = [
        .version, .key, .sessionKey, .extInf, .byteRange, .iFramesOnly, .map, .define, .skip, .media, .streamInf, .iFrameStreamInf,
    ]
    static let watchesSegments = false

    /// The first use of each feature that needs a version, in the order met.
    private var uses: [Use] = []
    private var declared: (version: UInt64, line: Int)?
    private var unreadableVersion = false
    private var isIFramesOnly = false
    private var sawFractionalDuration = false
    private var sawByteRange = false
    private var firstMap: (line: Int, offset: Int)?

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        guard let name = tag.name else { return }
        func note(_ feature: Feature, _ line: PlaylistLine, _ column: Int) {
            self.note(feature, line, context.fileColumn(column, on: line))
        }
        switch name {
        case .version:
            if case .decimalInteger(let version) = tag.value {
                declared = (version, line.raw.number)
            } else {
                unreadableVersion = true
            }
        case .key, .sessionKey:
            guard name == .key, let list = tag.attributes else { return }
            if let iv = list["IV"] { note(.iv, line, iv.column) }
            if let format = list["KEYFORMAT"] { note(.keyFormat, line, format.column) }
            if let versions = list["KEYFORMATVERSIONS"] {
                note(.keyFormatVersions, line, versions.column)
            }
            if let method = list["METHOD"], method.text == "SAMPLE-AES" {
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
            if firstMap == nil { firstMap = (line.raw.number, line.raw.offset) }
            note(.map, line, 1)
        case .define:
            note(.define, line, 1)
            if let queryParameter = tag.attributes?["QUERYPARAM"] { note(.queryParameter, line, queryParameter.column) }
        case .skip:
            note(.skip, line, 1)
            if let list = tag.attributes?["RECENTLY-REMOVED-DATERANGES"] { note(.skipDateRanges, line, list.column) }
        case .media:
            if let id = tag.attributes?["INSTREAM-ID"], id.text.hasPrefix("SERVICE") { note(.serviceChannel, line, id.column) }
            noteRequirementAttributes(tag, line, context)
        case .streamInf, .iFrameStreamInf:
            noteRequirementAttributes(tag, line, context)
        default:
            break
        }
    }

    /// What needs a version (RFC 8216 section 7).
    enum Feature: Hashable {
        case iv, keyFormat, keyFormatVersions, sampleAES, fractionalDuration, byteRange, iFramesOnly, define
        /// rfc8216bis section 8.
        case serviceChannel, skip, skipDateRanges, queryParameter, requirementAttribute
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
            }
        }
    }

    private struct Use {
        var feature: Feature
        var line: Int
        var offset: Int
        var column: Int
    }

    mutating func finish(in context: RuleContext) {
        guard !unreadableVersion else { return }
        if let index = uses.firstIndex(where: { $0.feature == .map }), !isIFramesOnly { uses[index].feature = .mapOutsideIFrames }
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

    /// rfc8216bis 8: an attribute whose name starts with `REQ-` (REQ-VIDEO-LAYOUT) needs version 12.
    private mutating func noteRequirementAttributes(_ tag: Tag, _ line: PlaylistLine, _ context: RuleContext) {
        guard let attribute = tag.attributes?.first(where: { $0.name.hasPrefix("REQ-") }) else { return }
        note(.requirementAttribute, line, context.fileColumn(attribute.column, on: line))
    }

    private mutating func note(_ feature: Feature, _ line: PlaylistLine, _ column: Int) {
        guard !uses.contains(where: { $0.feature == feature }) else { return }
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
