import CPIX
import HLS
import MP4
import SKDFiles
import SKDKeys
import SKDTemplate
import SKDValidation

/// Turns requests into what a run needs, reading and checking what they name (templates, value files,
/// catalogues, patterns, CPIX documents) before any playlist is touched; a request it cannot use is a
/// ``RequestProblem`` naming the setting, in the caller's words for it (`names`).
public enum Planner {
    /// The template `reference` names (a shipped name, a template file, an inline URI template), every
    /// field checked; a misspelt name is told with the one meant.
    public static func keyTemplate(_ reference: String, names: SettingNames) throws(RequestProblem) -> KeyTemplate {
        do {
            return try KeyTemplate.resolve(reference, in: TemplateLibrary.fromProcessEnvironment())
        } catch {
            if case .unknown(let name, let known) = error, let meant = NearestName.nearest(to: name, in: known) {
                throw RequestProblem(.template, "\(names[.template]): \(error); did you mean '\(meant)'?")
            }
            throw RequestProblem(.template, "\(names[.template]): \(error)")
        }
    }

    /// The values given for the whole run: ``ValuesRequest/values``, then ``ValuesRequest/valueFiles``
    /// read; a name given both ways is refused (which would win is no one's guess to make).
    public static func givenValues(_ request: ValuesRequest, names: SettingNames) throws(RequestProblem) -> [(name: String, value: String)]
    {
        var inline: [(name: String, value: String)] = []
        for argument in request.values { inline.append(try value(argument, names: names)) }
        var fromFiles: [(name: String, value: String)] = []
        for argument in request.valueFiles { fromFiles.append(try value(fromFile: argument, names: names)) }
        if let both = fromFiles.first(where: { file in inline.contains { $0.name == file.name } }) {
            throw RequestProblem(
                .valueFiles, "\(names[.valueFiles]) \(both.name): \(both.name) is given with \(names[.values]) too; give it once")
        }
        return inline + fromFiles
    }

    /// The names ``ValuesRequest/valueFiles`` gives values of.
    public static func namesFromFiles(_ request: ValuesRequest) -> Set<String> {
        Set(request.valueFiles.map { String($0.prefix { $0 != "=" }) })
    }

    /// The variable sources of `request`: its values (``givenValues(_:names:)``), catalogue, path pattern
    /// and match pattern, each read and checked.
    public static func variableSources(_ request: ValuesRequest, names: SettingNames) throws(RequestProblem) -> VariableSources {
        var sources = try variableSources(request, given: try givenValues(request, names: names), names: names)
        sources.fromFiles = namesFromFiles(request)
        return sources
    }

    /// The same, with the values given for the run already read (`given`).
    static func variableSources(
        _ request: ValuesRequest, given: [(name: String, value: String)], names: SettingNames
    ) throws(RequestProblem) -> VariableSources {
        let catalog: Catalog?
        do {
            catalog = try request.catalog.map { path throws(Catalog.LoadError) in try Catalog.load(path: path) }
        } catch {
            throw RequestProblem(.catalog, "\(names[.catalog]): \(error)")
        }
        return VariableSources(
            commandLine: given, catalog: catalog, pathPattern: try pattern(request.pathPattern, .pathPattern, names),
            match: try pattern(request.match, .match, names), names: names)
    }

    /// The CPIX documents of `paths` (files, or directories whose `*.xml` files are read), each refused with
    /// `file:line:` and the reason when skdpack cannot use it.
    public static func documents(_ paths: [String], names: SettingNames) throws(RequestProblem) -> [CPIXDocument] {
        var documents: [CPIXDocument] = []
        for path in paths {
            let files: [String]
            do {
                files = try KeyTruth.documentFiles(at: path)
            } catch {
                throw RequestProblem(.cpix, "\(names[.cpix]) \(error)")
            }
            guard !files.isEmpty else { throw RequestProblem(.cpix, "\(names[.cpix]) \(path): the directory holds no .xml document") }
            for file in files {
                do {
                    documents.append(try CPIXReader.read(file))
                } catch {
                    throw RequestProblem(.cpix, "\(names[.cpix]) \(error)")
                }
            }
        }
        return documents
    }

    /// The key truth of an `apply` run: CPIX documents, or the KID from the media (`kidFrom` is `media`),
    /// not both.
    public static func applyKeyTruth(
        cpix: [String], kidFrom: String?, maximumInitSize: Int, names: SettingNames
    ) throws(RequestProblem) -> KeyTruth {
        if let kidFrom, kidFrom != "media" {
            throw RequestProblem(.kidFrom, "\(names[.kidFrom]) \(kidFrom): the KID can come from media only")
        }
        if kidFrom != nil, !cpix.isEmpty {
            throw RequestProblem(
                .kidFromMedia,
                "\(names[.kidFromMedia]) and \(names[.cpix]) both give {kid}: give one (validate \(names[.cpix]) \(names[.media]) "
                    + "checks one against the other)")
        }
        guard maximumInitSize > 0 else { throw RequestProblem(.maximumInitSize, "\(names[.maximumInitSize]) must be positive") }
        return KeyTruth(
            documents: try documents(cpix, names: names), kidFromMedia: kidFrom != nil,
            initSegments: InitSegmentStore(limit: maximumInitSize))
    }

    /// The options of a `validate` run.
    public static func validation(_ request: ValidateRequest, names: SettingNames) throws(RequestProblem) -> ValidationOptions {
        if request.values.match != nil {
            throw RequestProblem(.match, "\(names[.match]) has no use in validate: it reads no old key URIs")
        }
        var options = ValidationOptions()
        // (The rules' ids are gathered only to check a disabled one: start-up pays for what a run uses.)
        let known = request.disabledRules.isEmpty ? [] : Set(RuleRegistry.validationKinds.map(\.id))
        for rule in request.disabledRules {
            guard known.contains(DiagnosticID(rawValue: rule)) else {
                let nearest = NearestName.nearest(to: rule, in: known.map(\.rawValue).sorted()).map { "; did you mean \($0)?" } ?? ""
                throw RequestProblem(
                    .disabledRule, "\(names[.disabledRule]) \(rule): no such rule\(nearest) (\(names[.ruleList]) lists them)")
            }
            options.disabledRules.insert(DiagnosticID(rawValue: rule))
        }
        guard request.maximumURILength > 0 else {
            throw RequestProblem(.maximumURILength, "\(names[.maximumURILength]) must be a positive number of bytes")
        }
        options.maximumURILength = request.maximumURILength
        options.warningsAsErrors = request.warningsAsErrors
        options.reader = request.reader
        guard request.maximumInitSize > 0 else { throw RequestProblem(.maximumInitSize, "\(names[.maximumInitSize]) must be positive") }
        options.checksMedia = request.media
        options.checksSegments = request.segments
        options.keyTruth = KeyTruth(
            documents: try documents(request.cpix, names: names), initSegments: InitSegmentStore(limit: request.maximumInitSize))
        let given = try givenValues(request.values, names: names)
        let pinned = Dictionary(given.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
        let fromFiles = namesFromFiles(request.values)
        options.fromFiles = fromFiles
        options.allowHosts = request.allowHosts
        if let template = request.template {
            let definition = try keyTemplate(template, names: names).definition
            for name in pinned.keys.sorted() where !definition.uri.variableNames.contains(name) {
                let setting = Setting.given(name, fromFiles: fromFiles)
                throw RequestProblem(
                    setting, noSuchVariable(name, of: definition, variables: definition.uri.variableNames, setting: setting, names: names))
            }
            do {
                options.templateMatcher = try TemplateMatcher(definition: definition, pinned: pinned, fromFiles: fromFiles, names: names)
            } catch {
                throw RequestProblem(.template, "\(names[.template]) \(template): \(error)")
            }
            options.allowHosts += definition.allowHosts
        } else if !pinned.isEmpty {
            throw RequestProblem(.values, "\(names[.values]) needs \(names[.template]): the values are checked against the keys it makes")
        }
        if request.values.catalog != nil || request.values.pathPattern != nil {
            let setting: Setting = request.values.catalog != nil ? .catalog : .pathPattern
            guard request.template != nil else {
                throw RequestProblem(
                    setting, "\(names[setting]) needs \(names[.template]): the values are checked against the keys it makes")
            }
            var titleValues = request.values
            (titleValues.values, titleValues.valueFiles, titleValues.match) = ([], [], nil)
            let sources = try variableSources(titleValues, given: [], names: names)
            if let catalog = sources.catalog, let definition = options.templateMatcher?.definition {
                // A variable the catalogue was meant to give and has no column for would be checked against its
                // form only: any license server would pass. Refused, as apply refuses it.
                let patternGroups = sources.pathPattern?.groupNames ?? []
                let missing = definition.uri.variableNames.filter { name in
                    let spec = definition.variables[name]
                    return pinned[name] == nil && !VariableSources.builtInNames.contains(name) && !KeyTruth.variableNames.contains(name)
                        && !patternGroups.contains(name) && spec?.defaultValue == nil && spec?.required != false
                        && !catalog.columns.contains(name)
                }
                if let name = missing.first {
                    throw RequestProblem(
                        .catalog,
                        "\(names[.catalog]) \(catalog.path): it has no \(name) column, and nothing else gives {\(name)}, so every key's "
                            + "\(name) would pass unchecked; add the column, or give it with \(names[.values]) \(name)=…"
                            + (NearestName.nearest(to: name, in: catalog.columns.sorted()).map { " (is its column \($0) meant?)" } ?? ""))
                }
            }
            options.titleValues = sources
        }
        return options
    }

    /// The options of an `apply` run.
    public static func apply(_ request: ApplyRequest, names: SettingNames) throws(RequestProblem) -> ApplyOptions {
        try check(request.destination, inputs: request.inputs, names: names)
        var options = ApplyOptions(
            template: try keyTemplate(request.template, names: names), variables: try variableSources(request.values, names: names),
            assumeEncrypted: request.assumeEncrypted, sessionKeys: request.sessionKeys)
        options.readerOptions = request.reader
        options.readerOptions.parsesEveryTag = false
        options.keepsChangeDetails = request.keepsChangeDetails
        options.keyTruth = try applyKeyTruth(
            cpix: request.cpix, kidFrom: request.kidFrom, maximumInitSize: request.maximumInitSize, names: names)
        options.ignoredFindings = try ignoredFindings(request.ignoredFindings, names: names)
        guard request.titleLockWait >= 0, request.titleLockWait.isFinite else {
            throw RequestProblem(.lockWait, "\(names[.lockWait]) \(request.titleLockWait): give a number of seconds, 0 or more")
        }
        options.titleLockWait = request.titleLockWait
        options.validatesWrites = request.validatesWrites
        return options
    }

    /// An output directory that is an input, inside one, or holds one would be read with it by the next run
    /// (and a title's playlists written into the folder above it make a title of that folder).
    static func check(_ destination: ApplyDestination, inputs: [String], names: SettingNames) throws(RequestProblem) {
        guard case .directory(let output) = destination else { return }
        for input in inputs where input != "-" {
            if PathComponents.isSameOrInside(output, input), PathComponents.isSameOrInside(input, output) {
                throw RequestProblem(
                    .output,
                    "\(names[.output]) \(output) is the input \(input) itself: to change the playlists where they are, use "
                        + "\(names[.inPlace]); else write outside it")
            }
            if PathComponents.isSameOrInside(output, input) {
                throw RequestProblem(
                    .output,
                    "\(names[.output]) \(output) is inside the input \(input): the next run would read what this one wrote; write outside it"
                )
            }
            if PathComponents.isSameOrInside(input, output) {
                throw RequestProblem(
                    .output,
                    "\(names[.output]) \(output) holds the input \(input): its playlists would be written beside it, and the next run "
                        + "over \(output) would read both; write outside it")
            }
        }
    }

    /// The findings of `names` apply lets pass: the reader's grammar findings (``ApplyOptions/ignorableKinds``).
    static func ignoredFindings(_ ids: [String], names: SettingNames) throws(RequestProblem) -> Set<DiagnosticID> {
        guard !ids.isEmpty else { return [] }
        let allowed = Set(ApplyOptions.ignorableKinds.map(\.id))
        var ignored: Set<DiagnosticID> = []
        for name in ids {
            let id = DiagnosticID(rawValue: name)
            guard allowed.contains(id) else {
                let why =
                    FindingKinds.kind(id) != nil
                    ? "apply lets only the reader's grammar findings pass"
                    : "no such rule"
                        + (NearestName.nearest(to: name, in: FindingKinds.all.map(\.id.rawValue)).map { " (did you mean \($0)?)" } ?? "")
                throw RequestProblem(
                    .disabledRule,
                    "\(names[.disabledRule]) \(name): \(why); these may be: " + allowed.map(\.rawValue).sorted().joined(separator: ", "))
            }
            ignored.insert(id)
        }
        return ignored
    }

    /// `NAME=VALUE`, checked: NAME is letters, digits and `_`, not starting with a digit; the value holds
    /// nothing a key URI cannot carry.
    static func value(_ argument: String, names: SettingNames) throws(RequestProblem) -> (name: String, value: String) {
        let (name, value) = try nameAndText(argument, .values, text: "VALUE", names: names)
        return (name, try checked(value, of: name, .values, names: names))
    }

    /// `NAME=FILE`: the variable and the text of the file (at most 64 KiB, UTF-8), without one final newline
    /// (LF or CRLF), as `echo` and editors leave one, nor a byte-order mark.
    static func value(fromFile argument: String, names: SettingNames) throws(RequestProblem) -> (name: String, value: String) {
        let (name, path) = try nameAndText(argument, .valueFiles, text: "FILE", names: names)
        let setting = names[.valueFiles]
        let bytes: [UInt8]
        do {
            bytes = try TextFile.bytes(path, limit: 64 * 1024)
        } catch {
            throw RequestProblem(.valueFiles, "\(setting) \(name): cannot read \(error)")
        }
        guard TextFile.firstLineNotUTF8(bytes) == nil else {
            throw RequestProblem(.valueFiles, "\(setting) \(name): \(path) is not UTF-8 text")
        }
        var value = String(decoding: bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes, as: UTF8.self)
        // "\r\n" is one Character: removeLast takes both.
        if value.hasSuffix("\r\n") || value.hasSuffix("\n") { value.removeLast() }
        // An empty file is a secret that was not fetched (a failed `vault read > file`), not an empty value.
        guard !value.isEmpty else { throw RequestProblem(.valueFiles, "\(setting) \(name): \(path) is empty") }
        return (name, try checked(value, of: name, .valueFiles, names: names))
    }

    /// `NAME=TEXT` split, the name checked.
    private static func nameAndText(
        _ argument: String, _ setting: Setting, text: String, names: SettingNames
    ) throws(RequestProblem) -> (name: String, text: String) {
        // (The argument is not shown: without its `=` it may be a value alone, a secret.)
        guard let equals = argument.firstIndex(of: "=") else {
            throw RequestProblem(setting, "\(names[setting]): write NAME=\(text) (one was given without its '=')")
        }
        let name = String(argument[..<equals])
        guard !name.isEmpty, name.allSatisfy({ $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }), !name.first!.isNumber else {
            throw RequestProblem(setting, "\(names[setting]) \(name)=…: '\(name)' is not a variable name (letters, digits and _)")
        }
        return (name, String(argument[argument.index(after: equals)...]))
    }

    /// Refused before any playlist is read, rather than once per key: no key URI carries these. The value
    /// itself is not shown (it may be a secret).
    private static func checked(_ value: String, of name: String, _ setting: Setting, names: SettingNames) throws(RequestProblem) -> String
    {
        if let scalar = TemplateValue.forbiddenScalar(in: value) {
            throw RequestProblem(
                setting,
                "\(names[setting]) \(name): the value holds \(scalar.escaped(asASCII: true)); a key URI never carries '\"' or a control character"
            )
        }
        return value
    }

    private static func pattern(_ text: String?, _ setting: Setting, _ names: SettingNames) throws(RequestProblem) -> NamedPattern? {
        guard let text else { return nil }
        do {
            return try NamedPattern(text)
        } catch {
            throw RequestProblem(setting, "\(names[setting]) \(text): not a regular expression: \(error)")
        }
    }
}
