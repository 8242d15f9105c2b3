import Glibc
import MP4
import SKDBytes
import SKDXML

/// A CPIX document skdpack cannot use, with the file, the line and the reason.
public struct CPIXError: Error, Sendable, CustomStringConvertible {
    public var path: String
    /// The line the problem is on; 0 for a problem of the file as a whole (it cannot be read).
    public var line: Int
    public var reason: String
    /// The column, where the XML parser says.
    public var column: Int?

    public init(path: String, line: Int, reason: String, column: Int? = nil) {
        (self.path, self.line, self.reason, self.column) = (path, line, reason, column)
    }

    /// `path:line:column: reason` (as far as the place is known). The reason quotes the document's values:
    /// shown with their control characters escaped.
    public var description: String {
        let place = line > 0 ? ":\(line)" + (column.map { ":\($0)" } ?? "") : ""
        return "\(path)\(place): \(PrintableText.escaping(reason))"
    }
}

/// Reads a CPIX document with Expat (``XMLDocumentReader``: no network, no DTD, no entities; UTF-8 or UTF-16, told by
/// the document), elements matched by namespace URI and local name, never by prefix, and checks what the
/// spec requires of the parts skdpack uses.
public enum CPIXReader {
    /// The CPIX namespace.
    public static let namespace = "urn:dashif:org:cpix"
    /// 32 MiB: a document with thousands of keys is a few megabytes.
    public static let defaultLimit = 32 << 20

    /// The document in the file at `path`.
    public static func read(_ path: String, limit: Int = defaultLimit) throws(CPIXError) -> CPIXDocument {
        try parse(try contents(path, limit: limit), path: path)
    }

    /// The document in `bytes`, named `path` in errors.
    public static func parse(_ bytes: [UInt8], path: String) throws(CPIXError) -> CPIXDocument {
        let root: XMLElement
        do {
            root = try XMLDocumentReader.read(bytes, encoding: nil)
        } catch {
            throw CPIXError(path: path, line: error.line, reason: error.reason, column: error.column)
        }
        var reader = DocumentReader(path: path)
        return try reader.read(root)
    }

    private static func contents(_ path: String, limit: Int) throws(CPIXError) -> [UInt8] {
        func failure(_ reason: String) -> CPIXError { CPIXError(path: path, line: 0, reason: reason) }
        switch SystemCall.readAll(path, limit: limit) {
        case .success(let bytes): return bytes
        case .failure(.system(let code)): throw failure("cannot be read: \(String(cString: strerror(code)))")
        case .failure(.tooLarge): throw failure("larger than the \(limit)-byte limit for a CPIX document")
        }
    }
}

/// One document's reading: the checks need the keys and periods read before the parts that refer to them.
private struct DocumentReader {
    let path: String
    var document: CPIXDocument
    /// The namespace of the document's CPIX elements: CPIX's, or none for a document without one.
    var namespace = CPIXReader.namespace
    /// The keys and DRM systems as they are read, given to the document whole (it indexes them).
    var keys: [ContentKey] = []
    var kids: Set<KeyID> = []
    var drmSystems: [DRMSystem] = []
    /// The DRM systems read so far for each content key. Keyed by KeyID, which the reader hashes anyway:
    /// a `Set<[UInt8]>` of system and key bytes cost two more lookups among every conformance in the binary
    /// on the first insert (about 0.14 ms of each `--cpix` run); a key has a handful of systems.
    var systemsOfKey: [KeyID: [KeyID]] = [:]
    var periodIDs: Set<String> = []
    var usageRules: [UsageRule] = []

    init(path: String) {
        self.path = path
        self.document = CPIXDocument(path: path)
    }

    func error(_ element: XMLElement, _ reason: String) -> CPIXError { CPIXError(path: path, line: element.line, reason: reason) }

    mutating func read(_ root: XMLElement) throws(CPIXError) -> CPIXDocument {
        // A document without any namespace is read as CPIX, as Shaka Packager reads it; any other
        // namespace is not CPIX, whatever its elements are called.
        guard root.name == "CPIX", root.namespace == CPIXReader.namespace || root.namespace.isEmpty else {
            let namespace = root.namespace.isEmpty ? "no namespace" : "namespace \(root.namespace)"
            throw error(root, "the root element is <\(root.name)> in \(namespace), not <CPIX> in \(CPIXReader.namespace)")
        }
        namespace = root.namespace
        if namespace.isEmpty {
            document.notes.append(
                .init(line: root.line, message: "the document has no namespace (CPIX's is \(CPIXReader.namespace)); read as CPIX"))
        }
        if let version = root.attributes["version"] {
            // "major.minor" (2.3); a patch level (2.3.1) names the same schema.
            let parts = version.split(separator: ".", omittingEmptySubsequences: false)
            guard (2...3).contains(parts.count), parts[0] == "2", let minor = Int(parts[1]), (0...4).contains(minor),
                parts.dropFirst(2).allSatisfy({ Int($0) != nil })
            else {
                throw error(root, "CPIX@version \"\(version)\" is not a CPIX version skdpack reads (2.0 to 2.4)")
            }
            document.version = version
        }
        document.id = root.attributes["id"]
        document.contentID = root.attributes["contentId"] ?? root.attributes["id"]
        document.hasDeliveryData = cpix(root, "DeliveryDataList") != nil
        if let signature = root.elements.first(where: { $0.name == "Signature" && $0.namespace == "http://www.w3.org/2000/09/xmldsig#" }) {
            document.notes.append(.init(line: signature.line, message: "the document is signed; skdpack does not check XML signatures"))
        }
        for element in cpix(root, "ContentKeyList").map({ cpixChildren($0, "ContentKey") }) ?? [] {
            try contentKey(element, rootContentID: root.attributes["contentId"])
        }
        document.keys = keys
        for element in cpix(root, "DRMSystemList").map({ cpixChildren($0, "DRMSystem") }) ?? [] { try drmSystem(element) }
        document.drmSystems = drmSystems
        for element in cpix(root, "ContentKeyPeriodList").map({ cpixChildren($0, "ContentKeyPeriod") }) ?? [] {
            try period(element)
        }
        for element in cpix(root, "ContentKeyUsageRuleList").map({ cpixChildren($0, "ContentKeyUsageRule") }) ?? [] {
            try usageRule(element)
        }
        document.usageRules = usageRules
        noteSPEKEContract()
        return document
    }

    // MARK: Keys

    private mutating func contentKey(_ element: XMLElement, rootContentID: String?) throws(CPIXError) {
        let kid = try keyID(element, "kid")
        guard kids.insert(kid).inserted else { throw error(element, "a second ContentKey with kid \(kid)") }
        var key = ContentKey(kid: kid, line: element.line)
        if let text = element.attributes["explicitIV"] {
            guard let iv = Base64.decode(text) else {
                throw error(element, "explicitIV \"\(text)\" is not base64 (xs:base64Binary of a 128-bit IV)")
            }
            guard iv.count == 16 || iv.count == 8 else {
                throw error(element, "explicitIV is \(iv.count) bytes; an IV is 16 bytes (8 as some packagers write)")
            }
            key.explicitIV = iv
        }
        if let scheme = element.attributes["commonEncryptionScheme"] {
            guard ["cenc", "cbc1", "cens", "cbcs", "SAMPLE-AES", "AES-128", "SAMPLE-AES-CTR"].contains(scheme) else {
                throw error(element, "commonEncryptionScheme \"\(scheme)\" is none of cenc, cbc1, cens, cbcs (or an HLS method, CPIX 2.4)")
            }
            key.commonEncryptionScheme = scheme
        }
        if let contentID = element.attributes["contentId"] {
            guard rootContentID == nil else {
                throw error(element, "ContentKey@contentId and CPIX@contentId are mutually exclusive (CPIX 2.4)")
            }
            key.contentID = contentID
        }
        if element.attributes["dependsOnKey"] != nil {
            key.dependsOnKey = try keyID(element, "dependsOnKey")
            guard key.contentID == nil else { throw error(element, "ContentKey@contentId must not appear with @dependsOnKey (CPIX 2.4)") }
        }
        keys.append(key)
    }

    // MARK: DRM systems

    private mutating func drmSystem(_ element: XMLElement) throws(CPIXError) {
        let systemID = try keyID(element, "systemId")
        let kid = try keyID(element, "kid")
        guard document.key(kid) != nil else { throw error(element, "DRMSystem@kid \(kid) names no ContentKey of the document") }
        guard !systemsOfKey[kid, default: []].contains(systemID) else {
            throw error(element, "a second DRMSystem for system \(systemID) and kid \(kid)")
        }
        systemsOfKey[kid, default: []].append(systemID)
        var system = DRMSystem(systemID: systemID, kid: kid, line: element.line)
        let signalings = cpixChildren(element, "HLSSignalingData")
        for signaling in signalings {
            let name = signaling.attributes["playlist"]
            let playlist: HLSSignaling.Playlist
            switch name {
            case nil, "media", "variant": playlist = .media
            case "master", "multiVariant": playlist = .multivariant
            case let other?:
                throw error(signaling, "HLSSignalingData@playlist \"\(other)\" is none of media, master, variant, multiVariant")
            }
            guard system.signaling(for: playlist) == nil else {
                throw error(signaling, "a second HLSSignalingData for the \(playlist.rawValue) playlist in one DRMSystem")
            }
            if name == nil, signalings.count > 1 {
                document.notes.append(
                    .init(
                        line: signaling.line, message: "HLSSignalingData without @playlist is for media playlists and must be the only one")
                )
            }
            guard let text = try decodedText(signaling, "HLSSignalingData") else {
                document.notes.append(
                    .init(line: signaling.line, message: "HLSSignalingData for the \(playlist.rawValue) playlist is empty (a request)"))
                continue
            }
            system.hlsSignaling.append(HLSSignaling(playlist: playlist, text: text, line: signaling.line))
        }
        if let uri = cpix(element, "URIExtXKey") {
            system.uriExtXKey = try decodedText(uri, "URIExtXKey")
            if system.uriExtXKey == nil {
                document.notes.append(.init(line: uri.line, message: "URIExtXKey is empty (a request)"))
            }
        }
        drmSystems.append(system)
    }

    /// The UTF-8 text a base64 element holds; `nil` when empty.
    private func decodedText(_ element: XMLElement, _ name: String) throws(CPIXError) -> String? {
        // Looked at as bytes: a document with a key per period has thousands of these, and a walk of their
        // characters cost more than decoding them.
        guard element.text.utf8.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) else { return nil }
        guard let bytes = Base64.decode(element.text) else { throw error(element, "\(name) is not base64") }
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        guard let text = String(validating: body, as: UTF8.self) else { throw error(element, "\(name) does not decode to UTF-8 text") }
        return text
    }

    // MARK: Periods and rules

    private mutating func period(_ element: XMLElement) throws(CPIXError) {
        var period = KeyPeriod(id: element.attributes["id"], line: element.line)
        if let text = element.attributes["index"] {
            guard let index = UInt32(text) else {
                throw error(element, "ContentKeyPeriod@index \"\(text)\" is not an unsigned 32-bit integer")
            }
            period.index = index
        }
        for name in ["start", "end", "startOffset", "endOffset", "duration"] {
            if let value = element.attributes[name] { period.times[name] = value }
        }
        if let id = period.id, !periodIDs.insert(id).inserted {
            throw error(element, "a second ContentKeyPeriod with id \"\(id)\" (an xs:ID)")
        }
        document.periods.append(period)
    }

    private mutating func usageRule(_ element: XMLElement) throws(CPIXError) {
        let kid = try keyID(element, "kid")
        guard document.key(kid) != nil else { throw error(element, "ContentKeyUsageRule@kid \(kid) names no ContentKey of the document") }
        var rule = UsageRule(kid: kid, intendedTrackType: element.attributes["intendedTrackType"], line: element.line)
        for filter in element.elements {
            guard filter.namespace == namespace else {
                rule.unusableReason = rule.unusableReason ?? "has a filter skdpack does not know (<\(filter.name)> in \(filter.namespace))"
                continue
            }
            switch filter.name {
            case "KeyPeriodFilter":
                guard let id = filter.attributes["periodId"] else { throw error(filter, "KeyPeriodFilter has no periodId") }
                guard periodIDs.contains(id) else {
                    throw error(filter, "KeyPeriodFilter@periodId \"\(id)\" names no ContentKeyPeriod of the document")
                }
                rule.filters.append(.keyPeriod(periodID: id))
            case "LabelFilter":
                guard let label = filter.attributes["label"] else { throw error(filter, "LabelFilter has no label") }
                rule.filters.append(.label(label))
            case "VideoFilter":
                rule.filters.append(
                    .video(
                        UsageRule.VideoFilter(
                            minPixels: try number(filter, "minPixels"), maxPixels: try number(filter, "maxPixels"),
                            minFps: try decimal(filter, "minFps"), maxFps: try decimal(filter, "maxFps"),
                            hdr: try boolean(filter, "hdr"), wcg: try boolean(filter, "wcg"))))
            case "AudioFilter":
                rule.filters.append(
                    .audio(
                        UsageRule.AudioFilter(
                            minChannels: try number(filter, "minChannels"), maxChannels: try number(filter, "maxChannels"))))
            case "BitrateFilter":
                rule.filters.append(.bitrate(min: try number(filter, "minBitrate"), max: try number(filter, "maxBitrate")))
            default:
                rule.unusableReason = rule.unusableReason ?? "has a filter skdpack does not know (<\(filter.name)>)"
            }
        }
        usageRules.append(rule)
    }

    /// SPEKE v2's contract: each intendedTrackType once. Broken, the document still maps by its filters.
    private mutating func noteSPEKEContract() {
        var seen: [String: UsageRule] = [:]
        for rule in usageRules {
            guard let type = rule.intendedTrackType else { continue }
            if let first = seen[type], first.kid != rule.kid {
                document.notes.append(
                    .init(
                        line: rule.line,
                        message: "intendedTrackType \"\(type)\" is also on the rule at line \(first.line); SPEKE v2 requires each once"))
            } else {
                seen[type] = rule
            }
        }
    }

    // MARK: Values

    private func keyID(_ element: XMLElement, _ name: String) throws(CPIXError) -> KeyID {
        guard let text = element.attributes[name] else { throw error(element, "<\(element.name)> has no \(name)") }
        guard let kid = KeyID(text) else { throw error(element, "\(element.name)@\(name) \"\(text)\" is not a UUID") }
        return kid
    }

    private func number(_ element: XMLElement, _ name: String) throws(CPIXError) -> UInt64? {
        guard let text = element.attributes[name] else { return nil }
        guard let value = UInt64(text) else { throw error(element, "\(element.name)@\(name) \"\(text)\" is not a whole number") }
        return value
    }

    private func decimal(_ element: XMLElement, _ name: String) throws(CPIXError) -> Double? {
        guard let text = element.attributes[name] else { return nil }
        guard let value = Double(text), value.isFinite else { throw error(element, "\(element.name)@\(name) \"\(text)\" is not a number") }
        return value
    }

    private func boolean(_ element: XMLElement, _ name: String) throws(CPIXError) -> Bool? {
        switch element.attributes[name] {
        case nil: return nil
        case "true", "1": return true
        case "false", "0": return false
        case let text?: throw error(element, "\(element.name)@\(name) \"\(text)\" is not true or false")
        }
    }

    private func cpix(_ element: XMLElement, _ name: String) -> XMLElement? {
        element.elements.first { $0.name == name && $0.namespace == namespace }
    }

    private func cpixChildren(_ element: XMLElement, _ name: String) -> [XMLElement] {
        element.elements.filter { $0.name == name && $0.namespace == namespace }
    }
}
