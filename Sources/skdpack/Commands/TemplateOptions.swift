import ArgumentParser
import SKDKeys
import SKDPack
import SKDTemplate

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The options that choose a template and give its variables, shared by `apply` and `render`.
struct TemplateOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The template: a shipped name (skdpack templates list), a template file, or an skd:// URI template.",
            valueName: "NAME|FILE|URI"), completion: Completions.template)
    var template: String

    @Option(
        name: [.customLong("var")],
        help: ArgumentHelp("A template variable (repeatable); beats every other source.", valueName: "NAME=VALUE"))
    var variables: [String] = []

    @Option(
        name: [.customLong("var-file")],
        help: ArgumentHelp(
            "A template variable whose value is a file's text, one final newline dropped (repeatable): a secret kept off the "
                + "command line, the process list and the shell's history.",
            valueName: "NAME=FILE"))
    var variableFiles: [String] = []

    @Option(
        help: ArgumentHelp("Variables per title from a CSV (header row) or JSON file.", valueName: "FILE"),
        completion: .file(extensions: ["csv", "json"]))
    var catalog: String?

    @Option(
        help: ArgumentHelp(
            "Named groups of this regular expression, matched on each playlist's path, become variables.", valueName: "REGEX"))
    var pathPattern: String?

    @Option(
        help: ArgumentHelp(
            "Named groups of this regular expression, matched on each existing FairPlay key URI, become variables (migrations).",
            valueName: "REGEX"))
    var match: String?

    func keyTemplate() throws -> KeyTemplate { try Self.keyTemplate(of: template) }

    /// The template `--template` names, every field checked.
    static func keyTemplate(of template: String) throws -> KeyTemplate {
        do {
            return try KeyTemplate.resolve(template, in: TemplateLibrary.fromProcessEnvironment())
        } catch {
            // A misspelt template name is named with the one meant, as a misspelt option is.
            if case .unknown(let name, let known) = error, let meant = NearestName.nearest(to: name, in: known) {
                throw UsageFailure("--template: \(error); did you mean '\(meant)'?")
            }
            throw UsageFailure("--template: \(error)")
        }
    }

    /// A `--var NAME=VALUE` argument, checked: NAME is letters, digits and `_`, not starting with a digit.
    static func variable(_ argument: String) throws -> (name: String, value: String) {
        let (name, value) = try nameAndText(argument, option: "--var", text: "VALUE")
        return (name, try checked(value, of: name, option: "--var"))
    }

    /// `--var-file NAME=FILE`: the variable and the text of the file (at most 64 KiB, UTF-8), without one final
    /// newline (LF or CRLF), as `echo` and editors leave one.
    static func variable(fromFile argument: String) throws -> (name: String, value: String) {
        let (name, path) = try nameAndText(argument, option: "--var-file", text: "FILE")
        let bytes: [UInt8]
        do {
            bytes = try TextFile.bytes(path, limit: 64 * 1024)
        } catch {
            throw UsageFailure("--var-file \(name): cannot read \(error)")
        }
        guard TextFile.firstLineNotUTF8(bytes) == nil else { throw UsageFailure("--var-file \(name): \(path) is not UTF-8 text") }
        // A byte-order mark, as some editors write, is not part of the value.
        var value = String(decoding: bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes, as: UTF8.self)
        // "\r\n" is one Character: removeLast takes both.
        if value.hasSuffix("\r\n") || value.hasSuffix("\n") { value.removeLast() }
        // An empty file is a secret that was not fetched (a failed `vault read > file`), not an empty value.
        guard !value.isEmpty else { throw UsageFailure("--var-file \(name): \(path) is empty") }
        return (name, try checked(value, of: name, option: "--var-file"))
    }

    /// `NAME=TEXT` split, the name checked.
    private static func nameAndText(_ argument: String, option: String, text: String) throws -> (name: String, text: String) {
        guard let equals = argument.firstIndex(of: "=") else {
            throw UsageFailure("\(option) \(argument): write NAME=\(text)")
        }
        let name = String(argument[..<equals])
        guard !name.isEmpty, name.allSatisfy({ $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }),
            !name.first!.isNumber
        else { throw UsageFailure("\(option) \(name)=…: '\(name)' is not a variable name (letters, digits and _)") }
        return (name, String(argument[argument.index(after: equals)...]))
    }

    /// Refused before any playlist is read, rather than once per key: no key URI carries these. The value
    /// itself is not shown (it may be a secret).
    private static func checked(_ value: String, of name: String, option: String) throws -> String {
        if let scalar = TemplateValue.forbiddenScalar(in: value) {
            throw UsageFailure(
                "\(option) \(name): the value holds \(scalar.escaped(asASCII: true)); a key URI never carries '\"' or a control character")
        }
        return value
    }

    /// The values given on the command line: `--var`, then `--var-file`.
    static func given(variables: [String], files: [String]) throws -> [(name: String, value: String)] {
        let inline = try variables.map { try Self.variable($0) }
        let fromFiles = try files.map { try Self.variable(fromFile: $0) }
        // Which of the two would win is no one's guess to make.
        if let both = fromFiles.first(where: { file in inline.contains { $0.name == file.name } }) {
            throw UsageFailure("--var-file \(both.name): \(both.name) is given with --var too; give it once")
        }
        return inline + fromFiles
    }

    func sources() throws -> VariableSources {
        var sources = try Self.sources(
            given: try Self.given(variables: variables, files: variableFiles), catalog: catalog, pathPattern: pathPattern, match: match)
        sources.fromFiles = Self.names(ofFiles: variableFiles)
        return sources
    }

    /// The names `--var-file` gives values of.
    static func names(ofFiles files: [String]) -> Set<String> { Set(files.map { String($0.prefix { $0 != "=" }) }) }

    /// The variable sources of the values given (`--var`, `--var-file`), `--catalog`, `--path-pattern` and
    /// `--match`, checked and loaded.
    static func sources(
        given commandLine: [(name: String, value: String)], catalog: String?, pathPattern: String?, match: String?
    )
        throws -> VariableSources
    {
        let loadedCatalog: Catalog?
        do {
            loadedCatalog = try catalog.map { path throws(Catalog.LoadError) in try Catalog.load(path: path) }
        } catch {
            throw UsageFailure("--catalog: \(error)")
        }
        func pattern(_ text: String?, _ option: String) throws -> NamedPattern? {
            guard let text else { return nil }
            do {
                return try NamedPattern(text)
            } catch {
                throw UsageFailure("\(option) \(text): not a regular expression: \(error)")
            }
        }
        return VariableSources(
            commandLine: commandLine, catalog: loadedCatalog, pathPattern: try pattern(pathPattern, "--path-pattern"),
            match: try pattern(match, "--match"), names: .commandLine)
    }
}

/// A problem with how the command was called: said on stderr, exit status 2.
struct UsageFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Runs `body`, turning a ``UsageFailure`` into a message and exit status 2.
func reportingUsage(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let failure as UsageFailure {
        StandardStreams.error(Redaction.none.redacted("skdpack: \(failure.description)\n"))
        throw ExitStatus.failure
    }
}
