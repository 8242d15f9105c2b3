import ArgumentParser
import Glibc
import SKDPack
import SKDReports
import SKDTemplate
import SKDValidation

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What the shell completions (`--generate-completion-script`) offer for the values that have names: the
/// shipped templates and template files, rule ids, `--kid-from`'s one source, report file suffixes.
enum Completions {
    /// The shipped template names, and the template files and folders beside what is typed.
    static let template = CompletionKind.custom { _, _, prefix in
        TemplateLibrary.shippedNames.filter { $0.hasPrefix(prefix) } + files(beginning: prefix, suffixes: [".yaml", ".yml", ".json"])
    }

    /// Every rule `validate --disable` takes.
    static let validationRule = CompletionKind.list(RuleRegistry.validationKinds.map(\.id.rawValue))

    /// The reader's grammar findings `apply --disable` lets pass.
    static let ignorableFinding = CompletionKind.list(ApplyOptions.ignorableKinds.map(\.id.rawValue))

    static let kidSource = CompletionKind.list(["media"])

    /// A report file: what is typed, with each suffix that names a format.
    static let reportFile = CompletionKind.custom { _, _, prefix in
        let suffixes = [".json", ".xml", ".junit.xml", ".sarif", ".html"]
        guard !prefix.isEmpty, ReportFormat(fileName: prefix) == nil else { return files(beginning: prefix, suffixes: suffixes) }
        return suffixes.map { prefix + $0 } + files(beginning: prefix, suffixes: suffixes)
    }

    /// The files with one of `suffixes`, and the folders, whose path begins with `prefix`.
    static func files(beginning prefix: String, suffixes: [String]) -> [String] {
        let slash = prefix.lastIndex(of: "/")
        let directory = slash.map { String(prefix[...$0]) } ?? ""
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory) else { return [] }
        return names.sorted().compactMap { name in
            let path = directory + name
            guard path.hasPrefix(prefix), !name.hasPrefix(".") || prefix.hasSuffix(".") else { return nil }
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            if info.st_mode & S_IFMT == S_IFDIR { return path + "/" }
            return suffixes.contains(where: { name.hasSuffix($0) }) ? path : nil
        }
    }
}
