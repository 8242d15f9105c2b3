/// A command's options, once: each long name, whether it takes a value (and may be repeated), and what it
/// sets in the command's settings, for the fast parser of a plain command line (``read(_:into:)``); what it
/// is not sure of goes to ArgumentParser, whose declarations map to the same settings. A test holds each
/// table and ArgumentParser's declarations to the same names, kinds and settings.
struct OptionTable<Settings>: Sendable {
    struct Option: Sendable {
        typealias Kind = OptionKind

        let name: String
        let kind: Kind
        /// Sets what the option says; `false` when the value is not one the option takes.
        let set: @Sendable (inout Settings, String) -> Bool
    }

    let options: [Option]
    /// Where the words that are not options go.
    let paths: WritableKeyPath<Settings, [String]> & Sendable

    /// The option called `name`.
    func option(_ name: String) -> Option? { options.first { $0.name == name } }

    /// `settings` with what `arguments` (the words after the command's name) say, and the options given; or
    /// `nil` to let ArgumentParser parse them: it gives up at the first thing it is not sure of: help, an
    /// unknown or repeated option, `--name=value`, `--`, a short option, a value that looks like an option, a
    /// value of the wrong type.
    func read(_ arguments: ArraySlice<String>, into settings: Settings) -> (settings: Settings, given: [String])? {
        var words = arguments
        var settings = settings
        // An array, not a set: a handful of words, and the first Set<String> of a run costs a type lookup
        // (about 0.1 ms) that this parser is here to avoid.
        var given: [String] = []
        while let word = words.popFirst() {
            guard word.hasPrefix("--") else {
                guard !word.hasPrefix("-") || word == "-" else { return nil }
                settings[keyPath: paths].append(word)
                continue
            }
            guard !word.contains("="), let option = option(word) else { return nil }
            // A single-valued option given twice, or a flag given twice: ArgumentParser decides.
            if option.kind != .repeated {
                guard !given.contains(word) else { return nil }
                given.append(word)
            }
            var value = ""
            if option.kind != .flag {
                // The value after an option: one that looks like an option itself is ArgumentParser's to read.
                guard let next = words.popFirst(), !next.hasPrefix("-") else { return nil }
                value = next
            }
            guard option.set(&settings, value) else { return nil }
        }
        return (settings, given)
    }

    static func flag(_ name: String, _ field: WritableKeyPath<Settings, Bool> & Sendable) -> Option {
        Option(name: name, kind: .flag) { settings, _ in
            settings[keyPath: field] = true
            return true
        }
    }

    static func value(_ name: String, _ set: @escaping @Sendable (inout Settings, String) -> Void) -> Option {
        Option(name: name, kind: .value) { settings, value in
            set(&settings, value)
            return true
        }
    }

    static func repeated(_ name: String, _ field: WritableKeyPath<Settings, [String]> & Sendable) -> Option {
        Option(name: name, kind: .repeated) { settings, value in
            settings[keyPath: field].append(value)
            return true
        }
    }

    static func number<Value>(
        _ name: String, _ field: WritableKeyPath<Settings, Value> & Sendable, _ read: @escaping @Sendable (String) -> Value?
    ) -> Option {
        Option(name: name, kind: .value) { settings, text in
            guard let value = read(text) else { return false }
            settings[keyPath: field] = value
            return true
        }
    }

    /// The same for a field that is `nil` until given (`--jobs`).
    static func number<Value>(
        _ name: String, _ field: WritableKeyPath<Settings, Value?> & Sendable, _ read: @escaping @Sendable (String) -> Value?
    ) -> Option {
        Option(name: name, kind: .value) { settings, text in
            guard let value = read(text) else { return false }
            settings[keyPath: field] = value
            return true
        }
    }

    /// `options` of a part of the settings (`field`), as options of the whole.
    static func lifting<Part>(_ options: [OptionTable<Part>.Option], into field: WritableKeyPath<Settings, Part> & Sendable) -> [Option] {
        options.map { option in
            Option(name: option.name, kind: option.kind) { settings, value in option.set(&settings[keyPath: field], value) }
        }
    }

    /// A size with an optional K, M or G.
    static func size(_ text: String) -> Int? { ByteCount(argument: text)?.bytes }
}

/// Whether an option takes a value.
enum OptionKind: Sendable {
    case flag
    /// Takes a value; given once.
    case value
    /// Takes a value; may be given again, each adding one.
    case repeated
}
