/// `apply`'s options, once: each long name, whether it takes a value (and may be repeated), and what it
/// sets in ``ApplySettings``. Both ways into `apply` read it: the fast parser of a plain command line, and
/// the command line ArgumentParser has parsed and checked (its declarations in ``ApplyCommand`` are for
/// help, completion and the checks; the settings are read from the same words here). A test holds the
/// table and ArgumentParser's declarations to the same names, kinds and values.
enum ApplyOptionTable {
    struct Option: Sendable {
        enum Kind: Sendable {
            case flag
            /// Takes a value; given once.
            case value
            /// Takes a value; may be given again, each adding one.
            case repeated
        }

        let name: String
        let kind: Kind
        /// Sets what the option says; `false` when the value is not one the option takes.
        let set: @Sendable (inout ApplySettings, String) -> Bool
    }

    static let options: [Option] = [
        flag("--in-place", \.inPlace), flag("--check", \.check), flag("--diff", \.diff),
        flag("--assume-encrypted", \.assumeEncrypted), flag("--session-keys", \.sessionKeys),
        flag("--allow-shared-content-id", \.allowSharedContentID), flag("--follow-symlinks", \.followSymlinks),
        flag("--validate", \.validate), flag("--no-progress", \.noProgress),
        value("--template") { $0.template = $1 }, value("--catalog") { $0.catalog = $1 },
        value("--path-pattern") { $0.pathPattern = $1 }, value("--match") { $0.match = $1 },
        value("--output") { $0.output = $1 }, value("--root") { $0.root = $1 }, value("--shard") { $0.shard = $1 },
        value("--kid-from") { $0.kidFrom = $1 },
        repeated("--var") { $0.variables.append($1) }, repeated("--var-file") { $0.variableFiles.append($1) },
        repeated("--report") { $0.reports.append($1) },
        repeated("--cpix") { $0.cpix.append($1) }, repeated("--disable") { $0.disabledRules.append($1) },
        number("--jobs", \.jobs, { Int($0) }), number("--lock-wait", \.lockWait, Double.init),
        number("--max-segments", \.maxSegments, Int.init), number("--max-init-size", \.maxInitSize, size),
        number("--max-line-length", \.maxLineLength, size), number("--max-playlist-size", \.maxPlaylistSize, size),
    ]

    private static func flag(_ name: String, _ field: WritableKeyPath<ApplySettings, Bool> & Sendable) -> Option {
        Option(name: name, kind: .flag) { settings, _ in
            settings[keyPath: field] = true
            return true
        }
    }

    private static func value(_ name: String, _ set: @escaping @Sendable (inout ApplySettings, String) -> Void) -> Option {
        Option(name: name, kind: .value) { settings, value in
            set(&settings, value)
            return true
        }
    }

    private static func repeated(_ name: String, _ add: @escaping @Sendable (inout ApplySettings, String) -> Void) -> Option {
        Option(name: name, kind: .repeated) { settings, value in
            add(&settings, value)
            return true
        }
    }

    private static func number<Value>(
        _ name: String, _ field: WritableKeyPath<ApplySettings, Value> & Sendable, _ read: @escaping @Sendable (String) -> Value?
    ) -> Option {
        Option(name: name, kind: .value) { settings, text in
            guard let value = read(text) else { return false }
            settings[keyPath: field] = value
            return true
        }
    }

    /// The same for a field that is `nil` until given (`--jobs`).
    private static func number<Value>(
        _ name: String, _ field: WritableKeyPath<ApplySettings, Value?> & Sendable, _ read: @escaping @Sendable (String) -> Value?
    ) -> Option {
        Option(name: name, kind: .value) { settings, text in
            guard let value = read(text) else { return false }
            settings[keyPath: field] = value
            return true
        }
    }

    /// A size with an optional K, M or G.
    private static func size(_ text: String) -> Int? { ByteCount(argument: text)?.bytes }

    /// The option called `name`.
    static func option(_ name: String) -> Option? { options.first { $0.name == name } }
}

/// `apply` parsed without swift-argument-parser, from ``ApplyOptionTable``, for the plain command lines a
/// packaging pipeline runs once per rendition. ArgumentParser builds its view of every command by
/// reflection, and that costs about 1.5 ms a run, a quarter of an `apply` of a 20,000-segment playlist.
enum ApplyFastPath {
    /// The settings that `arguments` (the words after the executable's name) make, or `nil` to let
    /// ArgumentParser parse them: at the first thing this parser is not sure of (help, an unknown or
    /// repeated option, `--name=value`, a short option, a value that looks like an option, a value of the
    /// wrong type, a missing `--template`) it gives up, and ArgumentParser parses the whole command line,
    /// or explains what is wrong with it.
    static func settings(_ arguments: [String]) -> ApplySettings? {
        guard arguments.first == "apply" else { return nil }
        return read(arguments.dropFirst(), checked: false)
    }

    /// The settings of a command line ArgumentParser has parsed and found good: the same table, reading
    /// what ArgumentParser takes besides (`--name=value`, `--` before paths, an option given again: the
    /// last wins).
    static func settings(checked arguments: ArraySlice<String>) -> ApplySettings? {
        read(arguments, checked: true)
    }

    private static func read(_ arguments: ArraySlice<String>, checked: Bool) -> ApplySettings? {
        var words = arguments
        var settings = ApplySettings(template: "")
        // An array, not a set: a handful of words, and the first Set<String> of a run costs a type lookup
        // (about 0.1 ms) that this parser is here to avoid.
        var given: [String] = []
        while var word = words.popFirst() {
            if checked, word == "--" {
                settings.paths += words
                break
            }
            guard word.hasPrefix("--") else {
                guard checked || !word.hasPrefix("-") || word == "-" else { return nil }
                settings.paths.append(word)
                continue
            }
            var inline: String?
            if let equals = word.firstIndex(of: "=") {
                guard checked else { return nil }
                inline = String(word[word.index(after: equals)...])
                word = String(word[..<equals])
            }
            guard let option = ApplyOptionTable.option(word) else { return nil }
            // A single-valued option given twice, or a flag given twice: ArgumentParser decides.
            if option.kind != .repeated {
                guard checked || !given.contains(word) else { return nil }
                given.append(word)
            }
            var value = ""
            if option.kind != .flag {
                // The value after an option: one that looks like an option itself is ArgumentParser's to read.
                guard let next = inline ?? words.first, checked || !next.hasPrefix("-") else { return nil }
                if inline == nil { words.removeFirst() }
                value = next
            }
            guard option.set(&settings, value) else { return nil }
        }
        return given.contains("--template") ? settings : nil
    }
}
