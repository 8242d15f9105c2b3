import ArgumentParser
import FoundationEssentials
import HLS
import SKDPack

struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List the rule catalogue: id, severity, summary, spec section.",
        discussion: """
            Every finding `skdpack validate` can make: those of the playlist reader (encoding, grammar, tag \
            values), the playlist rules (HLS structure, KEY, FPS) and the package checks (PKG). Turn one off \
            with `skdpack validate --disable RULE`.

            Examples:
              skdpack rules
              skdpack rules --format json | jq -r '.[].id'
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case table, json }

    @Option(help: "Output format: table or json.")
    var format: Format = .table

    private struct Entry: Encodable {
        var id: String
        var severity: String
        var summary: String
        var specSection: String
    }

    func run() throws {
        let kinds = FindingKinds.all
        var output = OutputSink(fd: 1, path: "<stdout>")
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let entries = kinds.map {
                Entry(id: $0.id.rawValue, severity: $0.severity.rawValue, summary: $0.summary, specSection: $0.specSection)
            }
            try output.write(Array(try encoder.encode(entries)))
            try output.write("\n")
        case .table:
            let width = kinds.map(\.id.rawValue.count).max() ?? 0
            for kind in kinds {
                let id = kind.id.rawValue.padding(to: width)
                let severity = kind.severity.rawValue.padding(to: 8)
                try output.write("\(id)  \(severity)  \(kind.summary) (\(kind.citation))\n")
            }
        }
        try output.flush()
    }
}

extension String {
    fileprivate func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
