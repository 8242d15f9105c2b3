import HLS
import SKDFiles
import SKDKeys
import SKDTemplate

/// What a run of `apply` will need, checked before anything is written: a mistake in the plan (a value
/// given for a variable the template does not have, a variable no source gives, a catalogue without the
/// column or the row a title needs, key URIs on a host the template does not allow) is found once, and
/// said once, instead of failing key by key in the middle of a library.
public struct ApplyPlan: Sendable {
    public let options: ApplyOptions

    public init(options: ApplyOptions) { self.options = options }

    /// Everything wrong with running over `packages`, one sentence a problem; empty when the run can go.
    /// Unless `allowingSharedContentIDs`, a content id that the match or path pattern gives several titles
    /// is one (see ``sharedURIs(_:)``).
    public func problems(for packages: [PlaylistPackage], allowingSharedContentIDs: Bool = false) -> [String] {
        // In stages: a mistake of an earlier stage (a misspelt name) would show again as a later one's (a
        // variable without a value), so a stage with a problem is the last said.
        var problems = givenValues() + shellReferences() + groupNames()
        guard problems.isEmpty else { return problems }
        let needed = fromCatalogueOnly
        problems = unusedSources() + keyTruthSources() + sources(needed)
        guard problems.isEmpty else { return problems }
        problems = fixedValues() + ambiguousRows(packages) + catalogueValues(packages)
        guard problems.isEmpty else { return problems }
        problems += catalogueRows(packages, needed) + unmatchedPathPattern(packages)
        guard problems.isEmpty else { return problems }
        // Each title's first keys, read once for the two stages that look at them.
        let heads = options.variables.match != nil || packages.count > 1 ? titleHeads(packages) : []
        problems += hosts(packages) + capturedValues(heads)
        guard problems.isEmpty, !allowingSharedContentIDs else { return problems }
        return sharedURIs(heads)
    }

    /// A title as the plan sees it before anything is written: its folder, its first playlist, whether a
    /// key of it encrypts, and its first key (of its first playlist that has one: a master's session key,
    /// say).
    private struct TitleHead {
        var title: String
        var first: PlaylistIdentity
        var encrypts: Bool
        var key: FirstKey
        /// The playlist the key is in.
        var keyPath: String
    }

    /// The head of each package's title: each playlist read up to its first FairPlay key, once.
    private func titleHeads(_ packages: [PlaylistPackage]) -> [TitleHead] {
        packages.compactMap { package in
            let playlists = playlists(of: package)
            guard let first = playlists.first else { return nil }
            let keys = playlists.map { Self.firstKey(in: $0.path) }
            let keyed = keys.firstIndex { $0.fairPlayURI != nil || $0.keyID != nil }
            return TitleHead(
                title: AtomicFile.directory(of: package.master?.path ?? first.path), first: first,
                encrypts: keys.contains(where: \.encrypts),
                key: keyed.map { keys[$0] } ?? FirstKey(), keyPath: playlists[keyed ?? 0].path)
        }
    }

    /// Several titles whose key URIs would be the same, with nothing that says they share a key: a license
    /// server answers one key for a URI, so all but one of them would play with another title's keys. The
    /// run's key map (``KeyMap``) as far as it is known before anything is written: each title's first
    /// FairPlay key rendered from every source of its values (the run's, the title's, the `--match` groups
    /// of its old URI, its KEYID; `key_index` 0), and held with the KEYID that tells its key. Titles whose
    /// first keys have one KEYID share that key, and one URI for it is right. (`--var content_id` given to a
    /// library, two catalogue rows with one content id, and a `--match` group that captures too much are
    /// the usual ways there.) Only titles with keys count, or every title when clear media is given keys;
    /// a template that takes its values from key truth is not rendered here.
    private func sharedURIs(_ heads: [TitleHead]) -> [String] {
        let variables = options.variables
        let fromKeyTruth =
            !options.keyTruth.isEmpty
            && definition.uri.variableNames.contains { variables.sources(of: $0, keyTruth: true).contains(.truth) }
        guard heads.count > 1, !fromKeyTruth else { return [] }
        let renderer = TemplateRenderer(template: definition.uri)
        var byURI: [String: [(title: String, keyID: String?, values: [String: TemplateValue], secrets: [Secret])]] = [:]
        var order: [String] = []
        let oldSecrets = options.derived.oldSecrets(options)
        for head in heads where options.assumeEncrypted || head.encrypts {
            let (first, key, title) = (head.first, head.key, head.title)
            // A key the template makes already (what a first run wrote) is kept, not rendered again.
            if let uri = key.fairPlayURI, options.wroteAlready(uri) { continue }
            let values = variables.keyValues(
                playlist: variables.playlistValues(for: first), keyIndex: 0, kid: key.keyID, oldURI: key.fairPlayURI, line: 0)
            guard
                let uri = try? renderer.render({ name in
                    values[name] ?? definition.variables[name]?.defaultValue.map { TemplateValue($0, source: "") }
                })
            else { continue }
            if byURI[uri] == nil { order.append(uri) }
            if byURI[uri]?.contains(where: { $0.title == title }) != true {
                let secrets = key.fairPlayURI.map(oldSecrets.secrets(in:)) ?? []
                byURI[uri, default: []].append((title, key.keyID, values, secrets))
            }
        }
        return order.compactMap { uri in
            guard let titles = byURI[uri], titles.count > 1 else { return nil }
            // One KEYID for all of them: they share the key.
            if let keyID = titles[0].keyID, titles.allSatisfy({ $0.keyID == keyID }) { return nil }
            let named = titles.prefix(3).map(\.title).joined(separator: ", ") + (titles.count > 3 ? " and \(titles.count - 3) more" : "")
            let patterns = [names[.match], names[.pathPattern]]
            let from = definition.uri.variableNames.map { name -> String in
                guard let value = titles[0].values[name] else { return "{\(name)}" }
                let source = value.source.hasPrefix(names[.match]) ? names[.match] : value.source
                // A value a pattern captured is shown: the usual reason is a pattern that captures too much.
                let redaction = options.redaction.adding(titles[0].secrets)
                return "{\(name)} from \(source)" + (patterns.contains(source) ? ": \(redaction.redact(value.value))" : "")
            }.joined(separator: ", ")
            let captured = titles[0].values.values.contains { value in patterns.contains { value.source.hasPrefix($0) } }
            return "\(titles.count) titles would get the same key URIs (\(named)): the template's values (\(from)) are the same "
                + "for them, and a license server answers one key for a URI; "
                + (captured ? "a pattern that captures too much? " : "")
                + "give each title its own values (a catalogue, \(names[.pathPattern]) or \(names[.match]) group, or a run per title "
                + "with its own \(names[.values])); \(names[.allowSharedContentID]) only if they really share their keys"
        }
    }

    /// What the first key of a playlist says: whether a key encrypts, the first FairPlay key's URI, and the
    /// first KEYID (32 lowercase hex digits).
    private struct FirstKey {
        var encrypts = false
        var fairPlayURI: String?
        var keyID: String?
    }

    /// The first keys of the playlist at `path`, read no further than its first FairPlay key (its first
    /// segment, where a key already encrypts it and FairPlay has none there).
    private static func firstKey(in path: String) -> FirstKey {
        var found = FirstKey()
        guard let source = try? FileDescriptorSource.open(path: path) else { return found }
        let reader = PlaylistReader(source: source, path: path, options: ReaderOptions())
        while found.fairPlayURI == nil, let line = try? reader.next() {
            if line.kind == .uri, found.encrypts { break }
            guard line.kind == .tag(.key) || line.kind == .tag(.sessionKey), let tag = reader.currentTag, let key = KeyTag(tag) else {
                continue
            }
            if line.kind == .tag(.key), reader.hasKeysInForce { found.encrypts = true }
            if FairPlay.isFairPlayKey(key), let uri = key.uri { found.fairPlayURI = uri }
            if found.keyID == nil, let keyID = tag.attributes?["KEYID"].flatMap({ KeyLine.normalizedKeyID($0.textBytes) }) {
                found.keyID = keyID
            }
        }
        return found
    }

    /// Titles whose `--match` groups, written in clear, would capture what they must not: a secret part (a
    /// token) of their old key URIs, or, for the content id, a URI's scheme or query (a group that takes the
    /// rest of the old URI). Known before anything is written, from each title's first FairPlay key (a few
    /// lines read); every other key is held to the same at its turn.
    private func capturedValues(_ heads: [TitleHead]) -> [String] {
        guard let match = options.variables.match else { return [] }
        let groups = KeyURIs.clearGroups(of: match, in: definition)
        guard !groups.isEmpty else { return [] }
        let oldSecrets = options.derived.oldSecrets(options)
        let notesContentID = groups.contains("content_id") && !given.contains("content_id")
        for head in heads {
            guard let uri = head.key.fairPlayURI, !options.wroteAlready(uri), let captured = match.groups(in: uri) else { continue }
            let secret = KeyURIs.capturedSecret(
                groups.compactMap { name in captured[name].map { (name, $0) } }, secrets: oldSecrets.secrets(in: uri), pattern: match.text,
                names: names)
            var contentID = notesContentID ? captured["content_id"] : nil
            let problem =
                secret
                ?? contentID?.withUTF8 { contentID in
                    var uri = uri
                    return uri.withUTF8 { KeyURIs.uriInContentID(contentID, oldURI: $0, pattern: match.text, names: names) }
                }
            // One title says it: the pattern is the run's.
            if let problem { return ["\(head.keyPath): \(problem)"] }
        }
        return []
    }

    private var definition: TemplateDefinition { options.template.definition }
    private var names: SettingNames { options.variables.names }
    private var given: Set<String> { Set(options.variables.commandLine.map(\.name)) }

    /// The template's variables: those its URI uses and those it declares.
    private var templateVariables: [String] {
        definition.uri.variableNames + definition.variables.keys.sorted().filter { !definition.uri.variableNames.contains($0) }
    }

    /// Every value given for the run is for a variable of the template (or, with CPIX documents, the
    /// `content_id` that chooses a title's document): a typo is not silently ignored.
    private func givenValues() -> [String] {
        let known = Set(templateVariables + (options.keyTruth.documents.isEmpty ? [] : ["content_id"]))
        return options.variables.commandLine.map(\.name).filter { !known.contains($0) }.reduce(into: [String]()) { list, name in
            if !list.contains(name) { list.append(name) }
        }.map { name in
            let setting = Setting.given(name, fromFiles: options.variables.fromFiles)
            return Planner.noSuchVariable(name, of: definition, variables: templateVariables, setting: setting, names: names)
        }
    }

    /// `$name` or `${name}` in the template's text: a shell's (or EXT-X-DEFINE's) way to write a variable,
    /// which the template would write into every URI as it is. A key URI that means a `$` before a name
    /// writes it `%24`.
    private func shellReferences() -> [String] {
        var problems: [String] = []
        let segments = definition.uri.segments
        for (index, segment) in segments.enumerated() {
            guard case .literal(let text) = segment else { continue }
            if text.hasSuffix("$"), index + 1 < segments.count, case .placeholder(let next) = segments[index + 1] {
                problems.append(
                    "the template \(definition.uri) writes a literal $ before {\(next.name)}: write {\(next.name)}, not ${\(next.name)}")
            }
            for name in Self.dollarNames(in: text) {
                problems.append(
                    "the template \(definition.uri) writes $\(name) as it is into every URI: write {\(name)} for a variable "
                        + "(%24 for a $ the URI really holds)")
            }
        }
        return problems
    }

    /// Each named group of the match and path patterns names a variable (or a built-in it overrides): a
    /// misspelt group would leave its variable without a value, with no word about why.
    private func groupNames() -> [String] {
        let known = Set(templateVariables).union(VariableSources.builtInNames)
            .union(options.keyTruth.documents.isEmpty ? [] : ["content_id"])
        let patterns = [(names[.match], options.variables.match), (names[.pathPattern], options.variables.pathPattern)]
        return patterns.flatMap { name, pattern in
            (pattern?.groupNames ?? []).filter { !known.contains($0) }.map { group in
                "the group \(group) of \(name) names no variable of the template \(definition.name)"
                    + (NearestName.nearest(to: group, in: templateVariables).map { "; did you mean \($0)?" } ?? "")
                    + " (its variables: \(templateVariables.joined(separator: ", ")))"
            }
        }
    }

    /// The names after each `$` of `text` (`$content_id`), read on the bytes: a run's start-up pays no
    /// regular expression for it.
    private static func dollarNames(in text: String) -> [String] {
        let bytes = Array(text.utf8)
        func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
            byte == UInt8(ascii: "_") || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
                || (!first && byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        }
        var names: [String] = []
        for index in bytes.indices where bytes[index] == UInt8(ascii: "$") {
            var end = index + 1
            while end < bytes.count, isNameByte(bytes[end], first: end == index + 1) { end += 1 }
            if end > index + 1 { names.append(String(decoding: bytes[(index + 1)..<end], as: UTF8.self)) }
        }
        return names
    }

    private var patternGroups: Set<String> {
        Set(options.variables.match?.groupNames ?? []).union(options.variables.pathPattern?.groupNames ?? [])
    }

    /// A catalogue or a path pattern given for the run gives a value the template uses: else it was meant
    /// for a placeholder the template does not have (or spells otherwise), and every title would go
    /// without it.
    private func unusedSources() -> [String] {
        // With CPIX documents, a content id chooses each title's document.
        let used = Set(definition.uri.variableNames + (options.keyTruth.documents.isEmpty ? [] : ["content_id"])).subtracting(given)
        var problems: [String] = []
        if let catalog = options.variables.catalog, used.isDisjoint(with: catalog.columns) {
            problems.append(
                "no placeholder of the template \(definition.uri) takes a value from the catalogue \(catalog.path) "
                    + "(its columns: \(catalog.columns.sorted().joined(separator: ", "))); leave it out, or use its columns as {name}")
        }
        if let pattern = options.variables.pathPattern, used.isDisjoint(with: pattern.groupNames) {
            problems.append(
                "no placeholder of the template \(definition.uri) takes a group of \(names[.pathPattern]) "
                    + "(its groups: \(pattern.groupNames.sorted().joined(separator: ", "))); name a group after a placeholder")
        }
        return problems
    }

    /// A `--path-pattern` that matches none of the run's playlist paths: every key would say its values
    /// are missing, where the one mistake is the pattern (anchored on a relative path given absolute, say).
    /// It is matched on each path as the inputs give it: one of them is shown.
    private func unmatchedPathPattern(_ packages: [PlaylistPackage]) -> [String] {
        guard let pattern = options.variables.pathPattern else { return [] }
        let paths = packages.flatMap(playlists(of:)).map(\.path)
        guard let example = paths.first, !paths.contains(where: { pattern.groups(in: $0) != nil }) else { return [] }
        return [
            "\(names[.pathPattern]) \(pattern.text) matches none of the \(paths.count) playlist paths of the run (for example "
                + "\(example)): it is matched on each path as the inputs give it"
        ]
    }

    /// Each value given for the whole run, checked once as rendering will check it at every key: a value
    /// that breaks the template is one message before the run, not one error per playlist.
    private func fixedValues() -> [String] {
        let renderer = definition.renderer
        var problems: [String] = []
        for (name, value) in options.variables.commandLine where templateVariables.contains(name) {
            do {
                try renderer.check(TemplateValue(value, source: options.variables.givenSource(of: name)), of: name)
            } catch {
                problems.append(options.redaction.redact(error.message))
            }
        }
        return problems
    }

    /// The catalogue values of the titles the run touches, checked once as rendering will check them at
    /// every key (for the variables no stronger source gives): one message a row, before the run.
    private func catalogueValues(_ packages: [PlaylistPackage]) -> [String] {
        guard let catalog = options.variables.catalog else { return [] }
        let renderer = definition.renderer
        let fromCatalogue = Set(templateVariables).subtracting(given).subtracting(patternGroups)
        var seen: Set<String> = []
        var problems: [String] = []
        // A scheme after skd:// is the template's mistake (a filter missing), whatever row shows it: once.
        var schemes: [String: (message: String, rows: Int)] = [:]
        for package in packages {
            guard let playlist = playlists(of: package).first, let row = catalog.row(for: playlist), seen.insert(row.source).inserted else {
                continue
            }
            for (name, value) in row.values.sorted(by: { $0.key < $1.key }) where fromCatalogue.contains(name) {
                do {
                    try renderer.check(TemplateValue(value, source: row.source), of: name)
                } catch {
                    // The row's own tokens are hidden too (a bearer token in a value, as the run would find it).
                    let redaction = options.redaction.adding(row.values.values.flatMap { BearerTokens.secrets(in: $0) })
                    if error.problem == .notKeyURI {
                        schemes[name, default: (redaction.redact(error.message), 0)].rows += 1
                    } else {
                        problems.append(redaction.redact(error.message))
                    }
                    break
                }
            }
        }
        for (_, scheme) in schemes.sorted(by: { $0.key < $1.key }) {
            problems.append(scheme.message + (scheme.rows > 1 ? " (and in \(scheme.rows - 1) more rows)" : ""))
        }
        return problems
    }

    /// A catalogue row whose `title_dir` is a base name that several titles of the run have
    /// (`show-a/ep01`, `show-b/ep01`): each would take its values, and they would share one content id.
    private func ambiguousRows(_ packages: [PlaylistPackage]) -> [String] {
        guard let catalog = options.variables.catalog else { return [] }
        var titlesByRow: [String: [String]] = [:]
        var order: [String] = []
        for package in packages {
            guard let first = playlists(of: package).first, let found = catalog.match(for: first), found.byBaseName,
                let title = first.titleRelativeDirectory
            else { continue }
            if titlesByRow[found.row.source] == nil { order.append(found.row.source) }
            if titlesByRow[found.row.source]?.contains(title) != true { titlesByRow[found.row.source, default: []].append(title) }
        }
        return order.compactMap { source in
            guard let titles = titlesByRow[source], titles.count > 1 else { return nil }
            let named = titles.prefix(3).joined(separator: ", ") + (titles.count > 3 ? " and \(titles.count - 3) more" : "")
            return "the catalogue's \(String(source.dropFirst(catalog.path.count + 1))) names its title by the folder name "
                + "\(PathComponents.of(titles[0]).last ?? titles[0]), which \(titles.count) titles of this run have (\(named)): "
                + "give each title_dir as its path under the input (\(titles[0]))"
        }
    }

    /// The variables only key truth gives have it: a CPIX document gives them all, the media `{kid_uuid}`
    /// (`{kid}` is built in either way).
    private func keyTruthSources() -> [String] {
        let truth = options.keyTruth
        let available = !truth.documents.isEmpty ? KeyTruth.variableNames : truth.kidFromMedia ? ["kid", "kid_uuid"] : ["kid"]
        return definition.uri.variableNames.compactMap { name in
            guard KeyTruth.variableNames.contains(name), !available.contains(name), !given.contains(name),
                definition.variables[name]?.defaultValue == nil
            else { return nil }
            let from = name == "kid_uuid" ? "\(names[.cpix]) or \(names[.kidFromMedia])" : names[.cpix]
            return "{\(name)} comes from a CPIX document, and none was given (\(from))"
        }
    }

    /// The variables only the catalogue can give: not given for the run, not built in, with no default,
    /// not a group of the match or path pattern.
    private var fromCatalogueOnly: [String] {
        let patterns = patternGroups
        return definition.uri.variableNames.filter { name in
            let spec = definition.variables[name]
            return !given.contains(name) && !VariableSources.builtInNames.contains(name) && !KeyTruth.variableNames.contains(name)
                && !patterns.contains(name)
                && spec?.defaultValue == nil && spec?.required != false
        }
    }

    /// Each variable the URI needs has a source: else the run would fail at every key. `needed`: the
    /// variables only a catalogue can give.
    private func sources(_ needed: [String]) -> [String] {
        guard let catalog = options.variables.catalog else {
            return needed.map { name in "{\(name)} has no value from any source: \(names.whereValuesComeFrom(for: name))" }
        }
        let columns = catalog.columns
        let shipped = TemplateLibrary.shippedNames.contains(definition.name) && definition.path?.hasPrefix("templates/") == true
        return needed.filter { !columns.contains($0) }.map { name in
            "the catalogue \(catalog.path) has no \(name) column, and nothing else gives {\(name)}"
                + (NearestName.nearest(to: name, in: columns.sorted()).map { column in
                    // A shipped template is right as it is; a template of the user's may hold the typo.
                    shipped
                        ? "; is its column \(column) meant? name it \(name)"
                        : "; is its column \(column) meant? name it \(name), or write {\(column)} in the template if that is the typo"
                } ?? "")
                + " (its columns: \(columns.sorted().joined(separator: ", ")))"
        }
    }

    /// Each title the run touches has its catalogue row, when the catalogue is where a variable comes from.
    private func catalogueRows(_ packages: [PlaylistPackage], _ needed: [String]) -> [String] {
        guard let catalog = options.variables.catalog, !needed.isEmpty else { return [] }
        var problems: [String] = []
        for package in packages {
            for playlist in playlists(of: package) where catalog.row(for: playlist) == nil {
                // The title as a row would name it: its folder relative to the input (its base name at the input).
                let title = playlist.titleRelativeDirectory.flatMap { $0.isEmpty ? nil : $0 } ?? playlist.titleDirectory
                problems.append(
                    "no catalogue row in \(catalog.path) for title_dir \(title) (nor for the path \(playlist.path)): "
                        + "its title would get no \(needed.joined(separator: ", "))")
                break
            }
        }
        return problems
    }

    /// The key URIs of each title point at a host the template allows, where the host does not depend on
    /// the keys themselves: rendered from the title's values, with stand-ins for what only a key can give
    /// (if two different stand-ins give the same host, the host is the title's).
    private func hosts(_ packages: [PlaylistPackage]) -> [String] {
        let allowed = definition.allowHosts
        guard !allowed.isEmpty else { return [] }
        let renderer = TemplateRenderer(template: definition.uri)
        var titlesByHost: [String: [String]] = [:]
        var order: [String] = []
        for package in packages {
            guard let first = playlists(of: package).first else { continue }
            let values = options.variables.keyValues(
                playlist: options.variables.playlistValues(for: first), keyIndex: 0, kid: nil, oldURI: nil, line: 0)
            guard let host = host(standIn: "a", values: values, renderer: renderer),
                host == self.host(standIn: "b", values: values, renderer: renderer),
                !LicenseURL.isAllowed(host: host, by: allowed)
            else { continue }
            if titlesByHost[host] == nil { order.append(host) }
            titlesByHost[host, default: []].append(first.titleDirectory)
        }
        return order.map { host in
            let titles = titlesByHost[host]!
            let named = titles.prefix(3).joined(separator: ", ") + (titles.count > 3 ? " and \(titles.count - 3) more" : "")
            return "the key URIs of \(titles.count) title\(titles.count == 1 ? "" : "s") (\(named)) would point at \(host), "
                + "which the template's allow_hosts (\(allowed.joined(separator: ", "))) does not allow"
        }
    }

    /// The host of the URI rendered from `values`, the template's defaults, and `standIn` for the rest.
    private func host(standIn: String, values: [String: TemplateValue], renderer: TemplateRenderer) -> String? {
        let uri = try? renderer.render { name in
            values[name] ?? definition.variables[name]?.defaultValue.map { TemplateValue($0, source: "") }
                ?? TemplateValue(standIn, source: "")
        }
        guard let uri, case .url(_, let host) = LicenseURL.derive(fromKeyURI: uri) else { return nil }
        return host
    }

    /// The identities of a package's playlists that render keys: its media playlists, each owned by the title.
    private func playlists(of package: PlaylistPackage) -> [PlaylistIdentity] {
        let media = package.media.map { package.identity(of: $0) }
        return media.isEmpty ? package.master.map { [package.identity(of: $0)] } ?? [] : media
    }
}
