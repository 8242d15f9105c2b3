import Foundation
import SKDTemplate
import Testing

/// skdpack's own YAML reader, held to a YAML 1.2 parser (ruamel.yaml, which scripts/test installs in a
/// virtual environment): over the YAML 1.2 spec's examples and thousands of generated template-like
/// documents, every document the reader accepts must give the same nodes as ruamel.yaml (text and
/// whether it was plain, mappings in order, sequences); every other must be refused with a line.
@Suite("YAML reader against ruamel.yaml")
struct YAMLDifferentialTests {
    @Test(
        "the YAML 1.2 spec's examples and 4,000 generated template files: same value or a located refusal",
        .enabled(if: YAMLOracle.python != nil, YAMLOracle.missing))
    func differential() throws {
        var generator = TemplateDocumentGenerator(seed: 0x59A_3112)
        let documents = YAMLSpecExamples.all + (0..<4000).map { _ in generator.document() }
        let answers = try YAMLOracle.compose(documents)
        var agreed = 0
        var refused = 0
        var different: [String] = []
        // Valid YAML the reader refuses: not a failure, but where the reader could grow.
        var refusedValidDocuments: [String] = []
        for (document, answer) in zip(documents, answers) {
            let ours: Result<YAMLOracle.Node?, YAMLError>
            do {
                ours = .success(try YAMLReader.read(document).map(YAMLOracle.Node.init))
            } catch {
                ours = .failure(error)
            }
            switch (ours, answer) {
            case (.success(let node), .node(let reference)) where node == reference:
                agreed += 1
            case (.success(nil), .empty):
                agreed += 1
            case (.failure(let error), _):
                #expect(error.mark.line >= 1 && error.mark.column >= 1, "a refusal says where")
                refused += 1
                if case .node = answer { refusedValidDocuments.append("\(error.message)\t\(document.debugDescription)") }
            case (.success(let node), _):
                different.append("\(document.debugDescription)\n  ours: \(String(describing: node))\n  ruamel.yaml: \(answer)")
            }
        }
        let refusedValid = refusedValidDocuments.count
        // SKDPACK_YAML_REPORT=FILE keeps every difference, and every valid document refused, for study.
        if let path = ProcessInfo.processInfo.environment["SKDPACK_YAML_REPORT"] {
            try (different + ["-- refused, read by ruamel.yaml:"] + refusedValidDocuments).joined(separator: "\n")
                .write(toFile: path, atomically: true, encoding: .utf8)
        }
        print(
            "YAML differential: \(documents.count) documents, \(agreed) agreed, \(refused) refused (\(refusedValid) of them read by ruamel.yaml), \(different.count) different"
        )
        #expect(
            different.isEmpty, "\(different.count) documents read differently; the first:\n\(different.prefix(3).joined(separator: "\n"))")
        // Of what ruamel.yaml reads, most must be read, not refused: the generator writes what template files
        // hold, and much that they never do (multi-line quoted scalars, flow oddities) besides.
        #expect(agreed > 2 * refusedValid)
    }
}

/// ruamel.yaml, run once over many documents.
enum YAMLOracle {
    static let missing: Comment =
        "ruamel.yaml not found: scripts/test installs it in .build/oracle-venv; or set SKDPACK_YAML_ORACLE to a python that has it"

    /// A python with ruamel.yaml: `SKDPACK_YAML_ORACLE`, or the virtual environment scripts/test makes.
    static let python: String? = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidates: [String?] = [
            ProcessInfo.processInfo.environment["SKDPACK_YAML_ORACLE"], root.appendingPathComponent(".build/oracle-venv/bin/python").path,
        ]
        return candidates.compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Oracle/yaml_oracle.py").path

    /// A node as both readers give it.
    indirect enum Node: Equatable, CustomStringConvertible {
        case scalar(String, plain: Bool)
        case mapping([(Node, Node)])
        case sequence([Node])

        init(_ node: YAMLNode) {
            switch node {
            case .scalar(let text, let plain, _): self = .scalar(text, plain: plain)
            case .mapping(let entries, _): self = .mapping(entries.map { (Node($0.key), Node($0.value)) })
            case .sequence(let items, _): self = .sequence(items.map(Node.init))
            }
        }

        init?(json: Any) {
            guard let object = json as? [String: Any] else { return nil }
            if let text = object["scalar"] as? String, let plain = object["plain"] as? Bool {
                self = .scalar(text, plain: plain)
            } else if let pairs = object["mapping"] as? [[Any]] {
                var entries: [(Node, Node)] = []
                for pair in pairs {
                    guard pair.count == 2, let key = Node(json: pair[0]), let value = Node(json: pair[1]) else { return nil }
                    entries.append((key, value))
                }
                self = .mapping(entries)
            } else if let items = object["sequence"] as? [Any] {
                let nodes = items.compactMap(Node.init(json:))
                guard nodes.count == items.count else { return nil }
                self = .sequence(nodes)
            } else {
                return nil
            }
        }

        static func == (lhs: Node, rhs: Node) -> Bool {
            switch (lhs, rhs) {
            case (.scalar(let a, let p), .scalar(let b, let q)): a == b && p == q
            case (.mapping(let a), .mapping(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
            case (.sequence(let a), .sequence(let b)): a == b
            default: false
            }
        }

        var description: String {
            switch self {
            case .scalar(let text, let plain): plain ? text.debugDescription : "quoted " + text.debugDescription
            case .mapping(let entries): "{" + entries.map { "\($0.0): \($0.1)" }.joined(separator: ", ") + "}"
            case .sequence(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
            }
        }
    }

    enum Answer: CustomStringConvertible {
        case node(Node)
        case empty
        case refused(String)

        var description: String {
            switch self {
            case .node(let node): node.description
            case .empty: "(no document)"
            case .refused(let reason): "refused: \(reason)"
            }
        }
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    static func compose(_ documents: [String]) throws -> [Answer] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python!)
        process.arguments = [script]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let request = try JSONSerialization.data(withJSONObject: documents)
        // Written from another thread: the answer may fill the output pipe before the request is read whole.
        let writer = Thread {
            input.fileHandleForWriting.write(request)
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let results = try JSONSerialization.jsonObject(with: data) as? [[String: Any]],
            results.count == documents.count
        else { throw Failure(description: "the oracle failed (status \(process.terminationStatus))") }
        return try results.map { result in
            if let node = result["node"] {
                guard let parsed = Node(json: node) else { throw Failure(description: "the oracle's node cannot be read: \(node)") }
                return .node(parsed)
            }
            if result["empty"] != nil { return .empty }
            return .refused(result["error"] as? String ?? "?")
        }
    }
}
