/// `apply` parsed without swift-argument-parser, for the plain command lines a packaging pipeline runs once
/// per rendition. ArgumentParser builds its view of every command by reflection, and that costs about
/// 1.5 ms a run, a quarter of an `apply` of a 20,000-segment playlist. This parser knows `apply`'s options
/// and nothing else, and makes ``ApplySettings`` without touching ArgumentParser's types: at the first thing
/// it is not sure of (help, an unknown or repeated option, `--name=value`, a short option, a value that
/// looks like an option, a value of the wrong type, a missing `--template`) it gives up, and ArgumentParser
/// parses the whole command line, or explains what is wrong with it. A test holds its settings equal to
/// those of ArgumentParser's parse for every option.
enum ApplyFastPath {
    /// The settings that `arguments` (the words after the executable's name) make, or `nil` to let
    /// ArgumentParser parse them.
    static func settings(_ arguments: [String]) -> ApplySettings? {
        guard arguments.first == "apply" else { return nil }
        var words = Words(arguments.dropFirst())
        var settings = ApplySettings(template: "")
        // An array, not a set: a handful of words, and the first Set<String> of a run costs a type lookup
        // (about 0.1 ms) that this parser is here to avoid.
        var given: [String] = []
        while let word = words.next() {
            guard word.hasPrefix("-"), word != "-" else {
                settings.paths.append(word)
                continue
            }
            // A single-valued option given twice, or a flag given twice: ArgumentParser decides.
            if word != "--var", word != "--report", word != "--cpix", word != "--disable" {
                guard !given.contains(word) else { return nil }
                given.append(word)
            }
            switch word {
            case "--in-place": settings.inPlace = true
            case "--check": settings.check = true
            case "--diff": settings.diff = true
            case "--assume-encrypted": settings.assumeEncrypted = true
            case "--session-keys": settings.sessionKeys = true
            case "--allow-shared-content-id": settings.allowSharedContentID = true
            case "--follow-symlinks": settings.followSymlinks = true
            case "--validate": settings.validate = true
            case "--no-progress": settings.noProgress = true
            case "--template":
                guard let value = words.value() else { return nil }
                settings.template = value
            case "--var":
                guard let value = words.value() else { return nil }
                settings.variables.append(value)
            case "--catalog":
                guard let value = words.value() else { return nil }
                settings.catalog = value
            case "--path-pattern":
                guard let value = words.value() else { return nil }
                settings.pathPattern = value
            case "--match":
                guard let value = words.value() else { return nil }
                settings.match = value
            case "--output":
                guard let value = words.value() else { return nil }
                settings.output = value
            case "--shard":
                guard let value = words.value() else { return nil }
                settings.shard = value
            case "--report":
                guard let value = words.value() else { return nil }
                settings.reports.append(value)
            case "--cpix":
                guard let value = words.value() else { return nil }
                settings.cpix.append(value)
            case "--disable":
                guard let value = words.value() else { return nil }
                settings.disabledRules.append(value)
            case "--kid-from":
                guard let value = words.value() else { return nil }
                settings.kidFrom = value
            case "--max-init-size":
                guard let value = words.value().flatMap(ByteCount.init(argument:)) else { return nil }
                settings.maxInitSize = value.bytes
            case "--jobs":
                guard let value = words.value().flatMap(Int.init) else { return nil }
                settings.jobs = value
            case "--lock-wait":
                guard let value = words.value().flatMap(Double.init) else { return nil }
                settings.lockWait = value
            case "--max-line-length":
                guard let value = words.value().flatMap(ByteCount.init(argument:)) else { return nil }
                settings.maxLineLength = value.bytes
            case "--max-playlist-size":
                guard let value = words.value().flatMap(ByteCount.init(argument:)) else { return nil }
                settings.maxPlaylistSize = value.bytes
            case "--max-segments":
                guard let value = words.value().flatMap(Int.init) else { return nil }
                settings.maxSegments = value
            default:
                return nil
            }
        }
        return given.contains("--template") ? settings : nil
    }

    /// The words of a command line, one at a time.
    private struct Words {
        private var rest: ArraySlice<String>

        init(_ words: ArraySlice<String>) { rest = words }

        mutating func next() -> String? { rest.popFirst() }

        /// The value after an option: `nil` if there is none, or if it looks like an option itself (then
        /// ArgumentParser says what it makes of it).
        mutating func value() -> String? {
            guard let word = rest.first, !word.hasPrefix("-") else { return nil }
            return rest.popFirst()
        }
    }
}
