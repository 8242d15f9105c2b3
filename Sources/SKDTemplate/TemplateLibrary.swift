import Glibc
import SKDBytes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Finds the template a `--template` argument names: an inline URI (`skd://…`), a template file, or the
/// name of a template in the search path or shipped with skdpack.
public struct TemplateLibrary: Sendable {
    /// Directories searched for `NAME.yaml` (then `.yml`, `.json`) before the shipped templates.
    public var searchPaths: [String]
    /// The fields template files may have besides the template language's own (see
    /// ``TemplateFile/parse(_:path:fields:)``).
    public var fields: Set<String>

    public init(searchPaths: [String] = [], fields: Set<String> = []) {
        self.searchPaths = searchPaths
        self.fields = fields
    }

    /// The library with the directories of `SKDPACK_TEMPLATE_PATH` (colon-separated) in the search path.
    public static func fromProcessEnvironment(fields: Set<String> = []) -> TemplateLibrary {
        let value = getenv("SKDPACK_TEMPLATE_PATH").map { String(cString: $0) }
        return TemplateLibrary(searchPaths: value?.split(separator: ":").map(String.init) ?? [], fields: fields)
    }

    /// The names of the shipped templates.
    public static var shippedNames: [String] { ShippedTemplates.files.keys.sorted() }

    /// The text of a shipped template.
    public static func shippedText(_ name: String) -> String? { ShippedTemplates.files[name] }

    public enum LookupError: Error, Sendable, CustomStringConvertible {
        case syntax(String, TemplateSyntaxError)
        case file(TemplateFileError)
        case unreadable(String, String)
        case unknown(String, known: [String])

        public var description: String {
            switch self {
            case .syntax(let source, let error): "the template '\(source)' does not parse at \(error)"
            case .file(let error): error.description
            case .unreadable(let path, let reason): "\(path): cannot read the template: \(reason)"
            case .unknown(let name, let known):
                "no template named '\(name)' (shipped: \(known.joined(separator: ", ")); or give a file or an skd:// URI)"
            }
        }
    }

    /// The shipped template with a secret variable whose `uri:` is `uri`, as written: found by a byte
    /// search of the shipped files (no template parsed unless one has it).
    func shippedDefinition(withURI uri: String) -> TemplateDefinition? {
        var needles = ["\nuri: \"" + uri + "\"\n", "secret: true"]
        for name in Self.shippedNames {
            guard var text = ShippedTemplates.files[name] else { continue }
            let found = text.withUTF8 { text in
                needles.indices.allSatisfy { index in
                    needles[index].withUTF8 { Bytes.offset(of: UnsafeRawBufferPointer($0), in: UnsafeRawBufferPointer(text)) != nil }
                }
            }
            if found { return try? TemplateFile.parse(text, path: "templates/\(name).yaml", fields: fields) }
        }
        return nil
    }

    /// The definition `argument` stands for.
    public func resolve(_ argument: String) throws(LookupError) -> TemplateDefinition {
        // A byte search: String.contains(String) brings in the string-processing library's generic
        // machinery, whose first use costs more than this whole lookup (it runs once per `apply`).
        let utf8 = argument.utf8
        let hasScheme = utf8.indices.contains { utf8[$0...].starts(with: "://".utf8) }
        if hasScheme || argument.hasPrefix("skd:") {
            var definition: TemplateDefinition
            do {
                definition = try TemplateDefinition(inline: argument)
            } catch {
                throw .syntax(argument, error)
            }
            // The form of a shipped template written out: its secret variables stay secret (an inline URI
            // declares nothing; its values' patterns are the user's to choose, and are not taken).
            for (name, spec) in shippedDefinition(withURI: argument)?.variables ?? [:] where spec.secret {
                var own = definition.variables[name] ?? (try? VariableSpec())
                own?.secret = true
                definition.variables[name] = own
            }
            return definition
        }
        if let path = filePath(for: argument) { return try load(path: path) }
        if let text = ShippedTemplates.files[argument] {
            do {
                return try TemplateFile.parse(text, path: "templates/\(argument).yaml", fields: fields)
            } catch {
                throw .file(error)
            }
        }
        throw .unknown(argument, known: Self.shippedNames)
    }

    /// The template file `argument` names, if it names one: a path (it has a `/` or a template file's
    /// suffix), or a name found in ``searchPaths``. `nil` for an inline URI, a shipped name or an unknown one.
    public func filePath(for argument: String) -> String? {
        let utf8 = argument.utf8
        guard !utf8.indices.contains(where: { utf8[$0...].starts(with: "://".utf8) }), !argument.hasPrefix("skd:") else { return nil }
        let isPath = utf8.contains(UInt8(ascii: "/")) || [".yaml", ".yml", ".json"].contains { argument.hasSuffix($0) }
        if isPath { return argument }
        for directory in searchPaths {
            for suffix in [".yaml", ".yml", ".json"] {
                let path = directory + "/" + argument + suffix
                if FileManager.default.fileExists(atPath: path) { return path }
            }
        }
        return nil
    }

    /// Reads and checks the template file at `path`.
    public func load(path: String) throws(LookupError) -> TemplateDefinition {
        let text: String
        do {
            text = try TextFile.read(path)
        } catch {
            throw .unreadable(path, error.reason)
        }
        do {
            return try TemplateFile.parse(text, path: path, fields: fields)
        } catch {
            throw .file(error)
        }
    }
}
