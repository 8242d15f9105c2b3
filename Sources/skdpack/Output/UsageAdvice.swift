import ArgumentParser
import FoundationEssentials
import SKDKeys
import SKDPack

/// What to tell a user whose command line ArgumentParser refused, where its own words would mislead: a
/// misspelt command (`aply` is reported as an unknown option of `skdpack`), a misspelt option (reported as a
/// required option missing), a value that starts with `-` (reported as a missing value). Worked out only
/// after a refusal, from the commands' own declarations (ArgumentParser's description of the tool), so a
/// command or option added is known here without a list to keep.
enum UsageAdvice {
    /// The advice for `arguments` (without the program name), or `nil` when ArgumentParser's message says
    /// what is wrong already.
    static func message(for arguments: [String]) -> String? {
        guard let tool = try? JSONDecoder().decode(Tool.self, from: Data(SKDPackCommand._dumpHelp().utf8)) else { return nil }
        var command = tool.command
        var path = ["skdpack"]
        var rest = arguments[...]
        // The command path: `skdpack report merge …`.
        while let word = rest.first, !word.hasPrefix("-"), let subcommands = command.subcommands, !subcommands.isEmpty {
            guard let next = subcommands.first(where: { $0.commandName == word }) else {
                guard word != "help" else { return nil }
                let names = subcommands.filter { $0.shouldDisplay != false }.map(\.commandName)
                let nearest = NearestName.nearest(to: word, in: names).map { "; did you mean '\($0)'?" } ?? ""
                return "'\(word)' is not a command of \(path.joined(separator: " "))\(nearest) "
                    + "(its commands: \(names.joined(separator: ", ")); \(path.joined(separator: " ")) --help)"
            }
            command = next
            path.append(word)
            rest = rest.dropFirst()
        }
        let options = (command.arguments ?? []).filter { $0.kind != "positional" }
        let usage = "(\(path.joined(separator: " ")) --help lists its options)"
        var index = rest.startIndex
        while index < rest.endIndex {
            let word = rest[index]
            index += 1
            if word == "--" { break }
            guard word.hasPrefix("-"), word.count > 1, !isNumber(word) else { continue }
            let name = String(word.prefix { $0 != "=" })
            guard let option = options.first(where: { $0.spellings.contains(name) }) else {
                if ["--help", "-h", "--version"].contains(name) { return nil }
                let spellings = options.flatMap(\.spellings).filter { $0.hasPrefix("--") }
                let nearest = NearestName.nearest(to: name, in: spellings).map { "; did you mean '\($0)'?" } ?? ""
                return "\(path.joined(separator: " ")) has no option '\(name)'\(nearest) \(usage)"
            }
            // An option that takes a value takes the next word, unless it is written `--name=value`.
            guard option.kind == "option", !word.contains("=") else { continue }
            guard index < rest.endIndex else { return nil }
            let value = rest[index]
            index += 1
            if value.hasPrefix("-"), value.count > 1,
                !options.contains(where: { $0.spellings.contains(String(value.prefix { $0 != "=" })) })
            {
                return "'\(value)' is not a value of \(name), which takes \(option.describedValue)"
            }
        }
        return nil
    }

    private static func isNumber(_ word: String) -> Bool { Double(word) != nil }

    // ArgumentParser's description of the tool (`--experimental-dump-help`), as much of it as is read here.
    private struct Tool: Decodable {
        var command: Command
    }

    private struct Command: Decodable {
        var commandName: String
        var shouldDisplay: Bool?
        var arguments: [Argument]?
        var subcommands: [Command]?
    }

    private struct Argument: Decodable {
        struct Name: Decodable {
            var kind: String
            var name: String
        }

        var kind: String
        var names: [Name]?
        var valueName: String?
        var abstract: String?

        var spellings: [String] { (names ?? []).map { $0.kind == "long" ? "--" + $0.name : "-" + $0.name } }

        /// What the option takes, from its help: `<COUNT>: the most segments …`.
        var describedValue: String {
            let value = valueName.map { "<\($0)>" } ?? "a value"
            guard var abstract, !abstract.isEmpty else { return value }
            if abstract.hasSuffix(".") { abstract.removeLast() }
            return "\(value): \(abstract.prefix(1).lowercased())\(abstract.dropFirst())"
        }
    }
}
