import Glibc
import HLS
import MP4
import SKDBytes
import SKDFiles
import SKDKeys
import SKDTemplate
import SKDValidation
import Synchronization

/// The key URIs of an `apply` run: the one way a FairPlay key gets its URI, whatever its values' sources.
///
/// The template is compiled once per run (``CompiledTemplate``): the values given for the whole run
/// (`--var`) rendered into its text, every other variable a slot with the sources it may come from, in
/// the order of ``VariableSources``: key truth, a `--match` group, the key's built-ins (`key_index`, `kid`,
/// `old_uri`), the playlist's values (its catalogue row, its path's groups, its built-ins), the default.
/// A playlist folds in the variables only it gives (``forPlaylist(_:)``), and a key renders what is left
/// from the bytes of its old URI, its period and its key truth; the URI rendered last is reused while what
/// it depends on repeats (a key-rotated playlist's periods often give the same).
final class KeyURIs: Sendable {
    /// A variable the template leaves to each playlist or key, and where its value may come from, strongest
    /// first (``VariableSources/sources(of:keyTruth:)``).
    /// (A class: a key's render reads its slots by reference, not as copies of their name and sources.)
    final class Slot: Sendable {
        let name: String
        let sources: [VariableSources.Source]
        /// Its `--match` group's capture index in the byte matcher, when the byte matcher runs the pattern.
        let capture: Int?
        /// Whether only the playlist gives it: folded in once per playlist.
        var fromPlaylistOnly: Bool { sources.count == 1 && sources[0] == .playlist }

        init(name: String, sources: [VariableSources.Source], capture: Int?) {
            (self.name, self.sources, self.capture) = (name, sources, capture)
        }
    }

    let template: KeyTemplate
    let variables: VariableSources
    let compiled: CompiledTemplate
    let slots: [Slot]
    /// The secret variables a `--match` group gives: their values are noted at every key.
    let secretGroups: [String]
    /// The secret variables a playlist gives: noted once per playlist.
    let secretNames: [String]
    /// Whether the template's `content_id` may come from a match or path pattern: it uses one, and no value
    /// is given for the whole run (``PlaylistOutcome/contentIDsFromPatterns``).
    let notesContentID: Bool
    /// The capture index of the `--match` group `content_id` in the byte matcher.
    let contentIDCapture: Int?
    /// The `--match` groups whose values the template writes in clear (not secret ones).
    let clearGroups: [String]
    /// Whether the URIs the template makes hold a secret: it has a secret variable, or its text a token.
    let makesSecretURIs: Bool
    /// The template read backwards with the values given for the run, made when first asked for.
    private let matcher = Mutex<TemplateMatcher??>(nil)

    init(template: KeyTemplate, variables: VariableSources, keyTruth: KeyTruth) {
        self.template = template
        self.variables = variables
        let definition = template.definition
        let given = Dictionary(variables.commandLine.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
        var slots: [Slot] = []
        compiled = CompiledTemplate(definition.renderer) { name in
            let sources = variables.sources(of: name, keyTruth: !keyTruth.isEmpty)
            if sources == [.given], let value = given[name] { return .fixed(TemplateValue(value, source: variables.givenSource(of: name))) }
            if let index = slots.firstIndex(where: { $0.name == name }) { return .slot(index) }
            slots.append(Slot(name: name, sources: sources, capture: variables.match?.byteCaptureIndex(of: name)))
            return .slot(slots.count - 1)
        }
        self.slots = slots
        let secrets = definition.secretNames.filter { given[$0] == nil }.sorted()
        secretGroups = secrets.filter { variables.match?.groupNames.contains($0) == true }
        secretNames = secrets
        notesContentID = definition.uri.variableNames.contains("content_id") && given["content_id"] == nil
        contentIDCapture = variables.match?.byteCaptureIndex(of: "content_id")
        clearGroups = Self.clearGroups(of: variables.match, in: definition)
        makesSecretURIs = !definition.secretNames.isEmpty || !KeyTemplate.literalSecrets(of: definition.uri).isEmpty
    }

    /// Why the content id `value`, which the `--match` group `content_id` captured from the old key URI
    /// `oldURI`, cannot be one: it holds a URI's scheme (`://`) or query (`?`), as a group that takes the rest
    /// of an old URI does (`skd://(?<content_id>.*)` over `skd://lic.example.com/fps?cid=t-7`); or it is the
    /// old URI's host, a server's name (it has a dot), where the URI names more in a query
    /// (`skd://(?<content_id>[^/?&]+)` over `skd://lic.example.com/fps?cid=t-7`: the entitlement form names
    /// its title there, and every title of the license server would get one content id). A URI with a path
    /// alone is the content id of `skd://{content_id}/{key}` (`skd://title-2001/0`), as packagers write it.
    /// `nil` when it does not.
    static func uriInContentID(
        _ value: UnsafeBufferPointer<UInt8>, oldURI: UnsafeBufferPointer<UInt8>?, pattern: String, names: SettingNames
    ) -> String? {
        // A scheme, a query, or the query's next parameter (`bravo&period=0` of a greedy `cid=(?<content_id>.+)`).
        let holdsURI =
            value.contains(UInt8(ascii: "?"))
            || value.indices.contains { index in
                value[index...].starts(with: "://".utf8) || (value[index] == UInt8(ascii: "&") && Self.startsParameter(value, after: index))
            }
        let captured = String(decoding: value, as: UTF8.self)
        if holdsURI {
            return "the \(names[.match]) group content_id of \(pattern) captured \(captured), which holds a "
                + "URI's scheme or query, not a content id alone: capture the content id only, for example "
                + "[?&]cid=(?<content_id>[^&]+) for a query value or skd://(?<content_id>[^/?&]+) for the host part"
        }
        guard let oldURI else { return nil }
        if isHostOfEntitlementURI(value, oldURI) {
            return
                "the \(names[.match]) group content_id of \(pattern) captured \(captured), the old key URI's host (a server's name), where the URI "
                + "names its title in a query (the entitlement form): every title of that "
                + "license server would get the content id \(captured); capture the title's id, for example "
                + "[?&]cid=(?<content_id>[^&]+) for a cid= query value"
        }
        if let parameter = titleParameter(ofURIWithPathSegment: value, oldURI) {
            return
                "the \(names[.match]) group content_id of \(pattern) captured \(captured), a part of the old key URI's path, where the URI "
                + "names its title in its query (\(parameter)=…): every title of that license server would get the content id "
                + "\(captured); capture the query value, for example [?&]\(parameter)=(?<content_id>[^&]+)"
        }
        return nil
    }

    /// Whether a query parameter's `name=` follows `&` at `index` of `value` (a name of letters, digits, `-`, `_`).
    private static func startsParameter(_ value: UnsafeBufferPointer<UInt8>, after index: Int) -> Bool {
        var end = index + 1
        while end < value.count,
            value[end] == UInt8(ascii: "-") || value[end] == UInt8(ascii: "_") || (value[end] | 0x20) &- UInt8(ascii: "a") < 26
                || value[end] &- UInt8(ascii: "0") < 10
        {
            end += 1
        }
        return end > index + 1 && end < value.count && value[end] == UInt8(ascii: "=")
    }

    /// The name of the query parameter of `uri` that names its title (``LicenseURL/titleParameters``), where `value`
    /// is a whole segment of the URI's path (what follows its authority, up to its query): a path part
    /// (`fps` of `skd://lic.example.com/fps?cid=t-7`) is the server's, not the title's. `nil` otherwise.
    private static func titleParameter(ofURIWithPathSegment value: UnsafeBufferPointer<UInt8>, _ uri: UnsafeBufferPointer<UInt8>) -> String?
    {
        guard !value.isEmpty, let schemeEnd = uri.indices.first(where: { uri[$0...].starts(with: "://".utf8) }) else { return nil }
        let start = schemeEnd + 3
        let queryStart = uri[start...].firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? uri.count
        guard queryStart < uri.count, uri[queryStart] == UInt8(ascii: "?"),
            let pathStart = uri[start..<queryStart].firstIndex(of: UInt8(ascii: "/"))
        else { return nil }
        let segments = uri[(pathStart + 1)..<queryStart].split(separator: UInt8(ascii: "/"))
        guard segments.contains(where: { $0.elementsEqual(value) }) else { return nil }
        var title: (name: String, value: [UInt8])?
        LicenseURL.forEachQueryParameter(of: uri) { name, value in
            guard title == nil, !value.isEmpty, LicenseURL.isTitleParameter(name) else { return }
            title = (String(decoding: name, as: UTF8.self), Array(value))
        }
        // A path part that is the title's own id (`skd://keys/movie-a?cid=movie-a`) is the title's.
        guard let title, !title.value.elementsEqual(value) else { return nil }
        return title.name
    }

    /// Whether `value` is a server's name (it has a dot) and the host of `uri` (what follows `scheme://`, its
    /// user part and port left out, letter case aside; or the host with its port), and the URI names more in a
    /// query after it, as the entitlement form names its title (`?cid=…`). A URI with a path alone
    /// (`skd://acme.movie-7/0`) is the packagers' `skd://{content_id}/{key}`.
    private static func isHostOfEntitlementURI(_ value: UnsafeBufferPointer<UInt8>, _ uri: UnsafeBufferPointer<UInt8>) -> Bool {
        guard value.contains(UInt8(ascii: ".")), let schemeEnd = uri.indices.first(where: { uri[$0...].starts(with: "://".utf8) })
        else { return false }
        let start = schemeEnd + 3
        let end = uri[start...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? uri.count
        guard let query = uri[end...].firstIndex(of: UInt8(ascii: "?")), query + 1 < uri.count,
            uri[end..<query].firstIndex(of: UInt8(ascii: "#")) == nil
        else { return false }
        var authority = uri[start..<end]
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) { authority = uri[(at + 1)..<end] }
        let host = authority.lastIndex(of: UInt8(ascii: ":")).map { uri[authority.startIndex..<$0] } ?? authority
        func same(_ part: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
            part.count == value.count && zip(part, value).allSatisfy { Self.lowercased($0) == Self.lowercased($1) }
        }
        return same(host) || same(authority)
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    /// The groups of `match` whose values the template `definition` writes in clear: those it uses that
    /// are not its secrets.
    static func clearGroups(of match: NamedPattern?, in definition: TemplateDefinition) -> [String] {
        (match?.groupNames ?? []).filter { definition.uri.variableNames.contains($0) && !definition.secretNames.contains($0) }
    }

    /// Why `groups` (each `--match` group the template writes in clear, and what it captured from an old
    /// key URI) cannot be used: one holds a secret part of that URI (`secrets`: a token of a form skdpack
    /// knows), which the new URI would carry in clear. `nil` when none does. Said with the pattern and the
    /// value redacted, in the plan (before anything is written) and at each key.
    static func capturedSecret(
        _ groups: [(name: String, value: String)], secrets: [Secret], pattern: String, names: SettingNames
    ) -> String? {
        guard !secrets.isEmpty, let (name, value) = groups.first(where: { group in secrets.contains { group.value.contains($0.revealed) } })
        else { return nil }
        let redaction = Redaction(secrets: secrets)
        return "the \(names[.match]) group \(name) of \(pattern) captured \(redaction.redact(value)), which holds the old key URI's "
            + "secret (its token): the new URI would carry it in clear; capture only what the new URI may show (a content id: "
            + "[?&]cid=(?<content_id>[^&]+)); a token the new URI must carry is a variable the template declares secret: true "
            + "(a template file), whose value every message and report hides"
    }

    /// The template read backwards with the values given for the run pinned (``TemplateMatcher``).
    var templateMatcher: TemplateMatcher? {
        matcher.withLock { cached in
            if let cached { return cached }
            let definition = template.definition
            let pinned = Dictionary(
                variables.commandLine.filter { definition.uri.variableNames.contains($0.name) }.map { ($0.name, $0.value) },
                uniquingKeysWith: { $1 })
            let made = try? TemplateMatcher(definition: definition, pinned: pinned)
            cached = .some(made)
            return made
        }
    }

    /// Whether `uri` is one the template makes with the values given for the run: where nothing else says
    /// what a key should be (a key a second run keeps as it is, a session key of playlists not read here).
    func makes(_ uri: String) -> Bool { templateMatcher?.check(uri) == .matches }

    /// Whether `uri` is one a run of this command wrote, which a `--match` must not read again (what it
    /// read in an old URI may stand elsewhere in the new one: `^skd://(?<content_id>[^/?&]+)` would read the
    /// new server's host): it starts with what the template fixes after the scheme (the new server) and the
    /// template makes it. (A template that fixes nothing after the scheme, `skd://{content_id}`, makes
    /// almost any key URI: there the pattern decides.) Asked at every key a `--match` reads: the start
    /// tells most old URIs apart without reading the template backwards.
    func wroteAlready(_ uri: UnsafeBufferPointer<UInt8>) -> Bool {
        compiled.startsAsRendered(uri) && makes(String(decoding: uri, as: UTF8.self))
    }

    /// What a playlist's keys are rendered with: the variables only the playlist gives folded in.
    func forPlaylist(_ identity: PlaylistIdentity) -> Playlist { Playlist(self, identity: identity) }

    /// What a key's URI is rendered from, beyond its playlist.
    struct Key {
        /// The key's URI as it stands (substituted), `nil` for a key being inserted.
        var oldURI: UnsafeBufferPointer<UInt8>?
        var index: Int
        /// The KEYID of another system's key of the period.
        var kid: UnsafeBufferPointer<UInt8>?
        /// What key truth gives the period.
        var truth: PeriodKeyTruth.Key?
        /// The secret parts of the old URI (a token of a form skdpack knows): no `--match` group written in
        /// clear may hold one.
        var oldSecrets: [Secret] = []
    }

    /// Why a key gets no URI.
    enum Unrendered: Error {
        /// A finding: its kind and message; the playlist is left as it was.
        case refused(DiagnosticKind, String)
        /// A key the `--match` pattern does not find whose URI the template makes already (a second run of a
        /// migration): kept as it is.
        case alreadyMade
    }

    /// The keys of one playlist: the template with the playlist's values folded in, and the last render.
    struct Playlist {
        let uris: KeyURIs
        let compiled: CompiledTemplate
        /// Each slot's value from the playlist, the fallback of its stronger sources.
        let playlistValues: [TemplateValue?]
        /// The secrets and the content id the playlist's own values hold, noted with its first key.
        let playlistSecrets: [Secret]
        let contentIDFromPath: String?
        /// What the URI depends on, besides the playlist.
        let dependsOnOldURI: Bool
        let dependsOnIndex: Bool
        let dependsOnKID: Bool
        let dependsOnTruth: Bool
        /// Whether the URI may carry a value whole from the key (its old URI, a CPIX document's URI or value):
        /// a token there is only found in the URI made.
        let copiesKeyValues: Bool
        /// The slots each key fills (the others are the playlist's, folded in), and those of them whose
        /// values are secret (noted at each render, whatever source gave them).
        let openSlots: [Int]
        let secretSlots: [Int]
        /// Whether the playlist's own secrets are noted (with its first render).
        private var notedPlaylistSecrets = false

        private var values = CompiledTemplate.Values()
        private var scratch = ByteRegex.Scratch()
        private var groups: [String: String]?
        private var captures: [Range<Int>?]?
        /// The URI rendered last, and what it was rendered from (the old URI's buffer kept from key to key).
        private(set) var uri = ByteBuffer()
        private var rendered = false
        private var lastOldURI = ByteBuffer()
        private var lastHadOldURI = false
        private var lastIndex = 0
        private var lastKID = ByteBuffer()
        private var lastHadKID = false
        private var lastTruth: KeyID?
        /// The content id noted last from a `--match` group's bytes.
        private var lastContentID: [UInt8] = []

        init(_ uris: KeyURIs, identity: PlaylistIdentity) {
            self.uris = uris
            let values = uris.variables.playlistValues(for: identity)
            var fallback: [TemplateValue?] = []
            for slot in uris.slots { fallback.append(values[slot.name]) }
            compiled = uris.compiled.binding { index, _ in
                uris.slots[index].fromPlaylistOnly ? .fixed(fallback[index]) : .slot(index)
            }
            playlistValues = fallback
            // The playlist's values hold a token where their variable is secret, or where one looks like one (a JWT).
            playlistSecrets =
                uris.secretNames.compactMap { name in
                    (values[name]?.value ?? uris.template.definition.variables[name]?.defaultValue).map(Secret.init)
                } + values.values.flatMap { BearerTokens.secrets(in: $0.value) }
            let pathPattern = uris.variables.pathPattern
            contentIDFromPath =
                uris.notesContentID && pathPattern?.groupNames.contains("content_id") == true ? values["content_id"]?.value : nil
            openSlots = uris.slots.indices.filter { !uris.slots[$0].fromPlaylistOnly }
            secretSlots = openSlots.filter { uris.secretNames.contains(uris.slots[$0].name) }
            let open = openSlots.map { uris.slots[$0].sources }
            dependsOnOldURI = uris.variables.match != nil || open.contains { $0.contains(.oldURI) }
            dependsOnIndex = open.contains { $0.contains(.keyIndex) }
            dependsOnKID = open.contains { $0.contains(.kid) }
            dependsOnTruth = open.contains { $0.contains(.truth) }
            copiesKeyValues = open.contains { $0.contains(.truth) || $0.contains(.oldURI) }
        }

        /// Renders the URI of `key` into ``uri``; `true` if it is the URI rendered last (what it noted is
        /// noted already), as what it depends on is the same.
        mutating func render(_ key: Key, noting outcome: inout PlaylistOutcome) throws(Unrendered) -> Bool {
            if rendered, !dependsOnOldURI || isLastOldURI(key.oldURI), !dependsOnIndex || key.index == lastIndex,
                !dependsOnKID || Self.same(key.kid, lastKID, had: lastHadKID), !dependsOnTruth || key.truth?.keyID.kid == lastTruth
            {
                return true
            }
            rendered = false
            if !notedPlaylistSecrets {
                outcome.secretValues.formUnion(playlistSecrets)
                notedPlaylistSecrets = true
            }
            try match(key)
            if !key.oldSecrets.isEmpty, let match = uris.variables.match,
                let message = KeyURIs.capturedSecret(
                    uris.clearGroups.compactMap { name in group(name, key).map { (name, $0) } }, secrets: key.oldSecrets,
                    pattern: match.text,
                    names: uris.variables.names)
            {
                throw .refused(ApplyDiagnostics.matchCapturedSecret, message + "; the playlist is left as it was")
            }
            values.removeAll()
            for index in openSlots { set(index, uris.slots[index], key) }
            // A secret's value from the key (its old URI, key truth, a built-in), before anything can show it.
            for slot in secretSlots {
                if let value = values.string(slot) { outcome.secretValues.insert(Secret(value)) }
            }
            for name in uris.secretGroups {
                if let value = group(name, key) { outcome.secretValues.insert(Secret(value)) }
            }
            if uris.notesContentID { try noteContentID(key, in: &outcome) }
            // Rendered into the buffer out of `self`, which the message of a value refused reads.
            var output = ByteBuffer()
            var slotValues = CompiledTemplate.Values()
            swap(&output, &uri)
            swap(&slotValues, &values)
            var failure: RenderError?
            do {
                try compiled.render(&slotValues, into: &output) { index in source(of: index, key) }
            } catch {
                failure = error
            }
            swap(&output, &uri)
            swap(&slotValues, &values)
            if let failure {
                var message = failure.message
                if failure.problem == .missingValue, let name = failure.variable {
                    let names = uris.variables.names
                    if key.oldURI == nil, uris.variables.match?.groupNames.contains(name) == true {
                        // A key skdpack adds (the period had other systems' keys only): no old URI to match.
                        message +=
                            " (this key period has no FairPlay key for \(names[.match]) to read \(name) from: the key is "
                            + "added; give \(name) for such titles with \(names[.values]) \(name)=…, a catalogue column or a "
                            + "\(names[.pathPattern]) group)"
                    } else {
                        message += " (\(names.whereValuesComeFrom(for: name)))"
                    }
                }
                throw .refused(ApplyDiagnostics.renderFailed, message + "; the playlist is left as it was")
            }
            try checkHost()
            rendered = true
            lastHadOldURI = key.oldURI != nil
            lastOldURI.removeAll()
            if let oldURI = key.oldURI { lastOldURI.append(oldURI) }
            (lastIndex, lastTruth, lastHadKID) = (key.index, key.truth?.keyID.kid, key.kid != nil)
            lastKID.removeAll()
            if let kid = key.kid { lastKID.append(kid) }
            return false
        }

        /// The `--match` groups of the key's old URI, by the byte matcher or, where it cannot say, by
        /// Swift's `Regex`. A key a run of this command wrote (``wroteAlready(_:)``) is kept as it is,
        /// whatever the pattern would read in it; one the pattern does not find is refused, unless the
        /// template makes it already.
        private mutating func match(_ key: Key) throws(Unrendered) {
            captures = nil
            groups = nil
            guard let match = uris.variables.match, let oldURI = key.oldURI else { return }
            if uris.wroteAlready(oldURI) { throw .alreadyMade }
            switch match.byteCaptures(in: oldURI, scratch: &scratch) {
            case .found(let found):
                captures = found
                return
            case .noMatch:
                break
            case .gaveUp:
                groups = match.groups(in: String(decoding: oldURI, as: UTF8.self))
                if groups != nil { return }
            }
            let text = String(decoding: oldURI, as: UTF8.self)
            // Already what the template makes with the run's values (a second run of a migration): kept.
            if uris.makes(text) { throw .alreadyMade }
            throw .refused(
                ApplyDiagnostics.matchFailed,
                "the key URI \(text) does not match \(uris.variables.names[.match]) \(match.text)\(Self.anchorHint(match.text)); "
                    + "the playlist is left as it was")
        }

        /// Why a pattern anchored at an end misses a URI that goes on past it (a `$` after `cid=…` where the
        /// URI has `&kp=1` next): the most common way a pattern written from one title misses another's.
        private static func anchorHint(_ pattern: String) -> String {
            if pattern.hasSuffix("$"), !pattern.hasSuffix("\\$") {
                return " (it ends in $, so it matches only where the URI ends: where the URI goes on past the group, "
                    + "drop the $ and stop the group at the next parameter, as [^&]+ does)"
            }
            if pattern.hasPrefix("^") { return " (it starts with ^, so it matches only at the URI's start)" }
            return ""
        }

        /// Slot `index`'s value from the strongest of its sources that has one.
        private mutating func set(_ index: Int, _ slot: Slot, _ key: Key) {
            for source in slot.sources {
                switch source {
                case .truth:
                    guard let value = key.truth?.values[slot.name] else { continue }
                    values.set(index, value)
                case .match:
                    if let capture = slot.capture, let captures, let range = captures[capture], let oldURI = key.oldURI {
                        values.set(index, UnsafeBufferPointer(rebasing: oldURI[range]))
                    } else if let value = groups?[slot.name] {
                        values.set(index, value)
                    } else {
                        continue
                    }
                case .keyIndex:
                    values.set(index, decimal: key.index)
                case .kid:
                    guard let kid = key.kid else { continue }
                    values.set(index, kid)
                case .oldURI:
                    guard let oldURI = key.oldURI else { continue }
                    values.set(index, oldURI)
                case .playlist, .given:
                    // (Given values are folded in at compile time: a slot's sources never hold `.given`.)
                    guard let value = playlistValues[index] else { continue }
                    values.set(index, value.value)
                }
                return
            }
        }

        /// Notes the content id a key's `--match` group or the playlist's path gives, unless it is the one
        /// noted last (a key-rotated playlist gives the same at every period).
        /// A content id from `--match` that holds a URI's scheme or query, or is the old URI's host, is refused
        /// (``KeyURIs/uriInContentID(_:oldURI:pattern:names:)``).
        private mutating func noteContentID(_ key: Key, in outcome: inout PlaylistOutcome) throws(Unrendered) {
            if captures != nil, let oldURI = key.oldURI, let capture = uris.contentIDCapture, let range = captures![capture] {
                let bytes = UnsafeBufferPointer(rebasing: oldURI[range])
                if bytes.count == lastContentID.count,
                    bytes.isEmpty
                        || lastContentID.withUnsafeBufferPointer({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 })
                {
                    return
                }
                if let problem = uriProblem(in: bytes, oldURI: oldURI) {
                    throw .refused(ApplyDiagnostics.matchCapturedURI, problem + "; the playlist is left as it was")
                }
                lastContentID.removeAll(keepingCapacity: true)
                lastContentID.append(contentsOf: bytes)
                outcome.contentIDsFromPatterns.insert(String(decoding: bytes, as: UTF8.self))
            } else if let contentID = group("content_id", key) {
                if let problem = Array(contentID.utf8).withUnsafeBufferPointer({ uriProblem(in: $0, oldURI: key.oldURI) }) {
                    throw .refused(ApplyDiagnostics.matchCapturedURI, problem + "; the playlist is left as it was")
                }
                outcome.contentIDsFromPatterns.insert(contentID)
            } else if let contentID = contentIDFromPath {
                outcome.contentIDsFromPatterns.insert(contentID)
            }
        }

        private func uriProblem(in contentID: UnsafeBufferPointer<UInt8>, oldURI: UnsafeBufferPointer<UInt8>?) -> String? {
            uris.variables.match.flatMap {
                KeyURIs.uriInContentID(contentID, oldURI: oldURI, pattern: $0.text, names: uris.variables.names)
            }
        }

        /// The value of the `--match` group `name` in the key's old URI.
        private func group(_ name: String, _ key: Key) -> String? {
            if let groups { return groups[name] }
            guard let captures, let oldURI = key.oldURI, let capture = uris.variables.match?.byteCaptureIndex(of: name),
                let range = captures[capture]
            else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: oldURI[range]), as: UTF8.self)
        }

        /// Where slot `index`'s value came from, as messages say it.
        private func source(of index: Int, _ key: Key) -> String {
            let slot = uris.slots[index]
            let names = uris.variables.names
            for source in slot.sources {
                switch source {
                case .truth where key.truth?.values[slot.name] != nil: return key.truth!.source
                case .match where group(slot.name, key) != nil: return names[.match]
                case .keyIndex: return VariableSources.keyIndexSource
                case .kid where key.kid != nil: return VariableSources.kidSource
                case .oldURI where key.oldURI != nil: return VariableSources.oldURISource
                case .playlist where playlistValues[index] != nil: return playlistValues[index]!.source
                default: continue
                }
            }
            return "the template's default"
        }

        /// A URI that names no key (`skd://`, an empty `cid=`: a value rendered empty) is refused, as validate's
        /// FPS-uri-empty would find it; then the template's `allow_hosts`, held against the license URL the URI makes.
        private func checkHost() throws(Unrendered) {
            if let empty = LicenseURL.emptiness(of: uri.utf8) {
                throw .refused(FairPlayURIEmptyRule.kind, empty + "; the playlist is left as it was")
            }
            let allowed = uris.template.definition.allowHosts
            guard !allowed.isEmpty else { return }
            guard case .url(_, let host) = LicenseURL.derive(fromKeyURI: uri.text),
                !LicenseURL.isAllowed(host: host, by: allowed)
            else { return }
            throw .refused(
                LicenseHostRule.kind,
                "the key URI would point at \(host), which the template's allow_hosts (\(allowed.joined(separator: ", "))) "
                    + "does not allow; the playlist is left as it was")
        }

        private func isLastOldURI(_ bytes: UnsafeBufferPointer<UInt8>?) -> Bool { Self.same(bytes, lastOldURI, had: lastHadOldURI) }

        /// Whether `bytes` are the bytes kept from the last render (`had`: whether it had any).
        private static func same(_ bytes: UnsafeBufferPointer<UInt8>?, _ last: ByteBuffer, had: Bool) -> Bool {
            guard let bytes else { return !had }
            guard had else { return false }
            return Bytes.equal(last.bytes, UnsafeRawBufferPointer(bytes))
        }
    }
}
