import Foundation
import SKDKeys
import SKDPack
import SKDTemplate
import Testing

/// `skdpack templates check` reports every problem of a template file in one run, each at its line, as a
/// compiler does: held over every combination of ten independent mistakes, each on a line of its own.
@Suite("template files: every problem in one reading")
struct TemplateCheckTests {
    /// Each line of the file, right and wrong; the wrong ones are each a problem at that line.
    static let lines: [(right: String, wrong: String?)] = [
        (#"name: t"#, #"name: bad name"#),
        (#"uri: "skd://{content_id}""#, #"uri: "skd://{content_id}/{undeclared}""#),
        (#"method: SAMPLE-AES"#, #"method: AES-999"#),
        (#"keyformatversions: "1""#, #"keyformatversions: "x""#),
        (#"iv: "0x00000000000000000000000000000001""#, #"iv: "0x01""#),
        (#"session_keys: true"#, #"session_keys: maybe"#),
        (#"description: "a b""#, #"description: "a\x01b""#),
        ("variables:", nil),
        ("  content_id:", nil),
        (#"    pattern: "[a-z0-9]+""#, #"    pattern: "[a-z""#),
        ("  other:", nil),
        (#"    pattern: "[0-9]+""#, nil),
        (#"    default: "123""#, #"    default: "abc""#),
        ("# nothing more", "extra_key: 1"),
    ]

    /// The line a wrong line's problem is reported at: the variable's mapping for its default.
    static func reportedLine(_ index: Int) -> Int { index == 12 ? 12 : index + 1 }

    @Test("every combination of mistakes: each reported at its line, nothing else")
    func everyProblemReported() throws {
        let wrongable = Self.lines.indices.filter { Self.lines[$0].wrong != nil }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("skdpack-template-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("t.yaml").path
        for mask in 0..<(1 << wrongable.count) {
            let wrong = Set(wrongable.enumerated().filter { mask & (1 << $0.offset) != 0 }.map(\.element))
            let text =
                Self.lines.indices.map { wrong.contains($0) ? Self.lines[$0].wrong! : Self.lines[$0].right }.joined(separator: "\n") + "\n"
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let (template, problems) = try KeyTemplate.problems(inFileAt: path)
            #expect(problems.map(\.line) == wrong.sorted().map(Self.reportedLine), "\(wrong.sorted())\n\(problems)")
            #expect((template == nil) == !wrong.isEmpty)
            // What apply and render see: the same problems, thrown as one error.
            do {
                _ = try KeyTemplate.resolve(path, in: TemplateLibrary())
                #expect(problems.isEmpty)
            } catch {
                guard case .file(let thrown) = error else {
                    Issue.record("\(error)")
                    continue
                }
                #expect(thrown.all == problems)
            }
        }
    }
}
