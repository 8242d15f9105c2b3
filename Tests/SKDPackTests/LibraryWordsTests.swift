import Foundation
import SKDFiles
import Testing

/// The library's messages name settings as its caller names them (``SKDFiles/SettingNames``): a tool of
/// its own on the library has other flags, or none.
@Suite("the library names no command-line flag")
struct LibraryWordsTests {
    @Test("no string of a library module holds a --flag")
    func noFlags() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let sources = root.appendingPathComponent("Sources")
        let flag = /"[^"\n]*--[a-z][a-z-]*/
        var found: [String] = []
        var files = 0
        // Every module of Sources but the command line's own (a new module is held to it as it comes).
        let modules = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0 != "skdpack" }.sorted()
        #expect(modules.contains("SKDPack") && modules.contains("SKDValidation"))
        for module in modules {
            let directory = sources.appendingPathComponent(module)
            for file in FileManager.default.enumerator(atPath: directory.path)!.compactMap({ $0 as? String })
            where file.hasSuffix(".swift") {
                files += 1
                let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                // A line inside a multi-line literal is text whether it has a quote or not.
                var inLiteral = false
                for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let code = line.trimmingCharacters(in: .whitespaces)
                    let opensOrCloses = code.components(separatedBy: "\"\"\"").count - 1
                    defer { if opensOrCloses % 2 == 1 { inLiteral.toggle() } }
                    guard !code.hasPrefix("//") || inLiteral else { continue }
                    guard line.contains(flag) || (inLiteral && line.contains(/(^|[\s(])--[a-z][a-z-]*/)) else { continue }
                    found.append("\(module)/\(file):\(index + 1): \(code)")
                }
            }
        }
        #expect(files > 150)
        // SettingNames documents, in comments only, the flags the command line gives it.
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}
