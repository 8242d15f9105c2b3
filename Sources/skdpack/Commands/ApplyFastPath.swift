import ArgumentParser
import HLS

/// `apply` parsed without swift-argument-parser, for the plain command lines a packaging pipeline runs once
/// per rendition. ArgumentParser builds its view of every command by reflection, and that costs about
/// 1.5 ms a run, a quarter of an `apply` of a 20,000-segment playlist. This parser knows `apply`'s options
/// and nothing else: at the first thing it is not sure of (help, an unknown or repeated option, `--name=value`,
/// a short option, a value that looks like an option, a value of the wrong type, a missing `--template`) it
/// gives up, and ArgumentParser parses the whole command line, or explains what is wrong with it. A test
/// holds its result equal to ArgumentParser's for every option.
enum ApplyFastPath {
    /// The command that `arguments` (the words after the executable's name) make, or `nil` to let
    /// ArgumentParser parse them.
    static func command(_ arguments: [String]) -> ApplyCommand? {
        guard arguments.first == "apply" else { return nil }
        var words = Words(arguments.dropFirst())
        var template: String?
        var variables: [String] = []
        var catalog: String?, pathPattern: String?, match: String?, output: String?, shard: String?
        var jobs: Int?
        var limits = (line: LineReader.defaultMaximumLineLength, size: ReaderOptions.defaultMaximumPlaylistSize,
                      segments: ReaderOptions.defaultMaximumSegmentCount)
        // Arrays, not sets: a handful of words, and the first Set<String> of a run costs a type lookup
        // (about 0.1 ms) that this parser is here to avoid.
        var flags: [String] = []
        var reports: [String] = []
        var paths: [String] = []
        var given: [String] = []
        while let word = words.next() {
            guard word.hasPrefix("-"), word != "-" else {
                paths.append(word)
                continue
            }
            // A single-valued option given twice, or a flag given twice: ArgumentParser decides.
            if word != "--var", word != "--report" {
                guard !given.contains(word) else { return nil }
                given.append(word)
            }
            switch word {
            case "--in-place", "--check", "--diff", "--assume-encrypted", "--session-keys", "--follow-symlinks",
                "--no-progress":
                flags.append(word)
            case "--template": guard let value = words.value() else { return nil }; template = value
            case "--var": guard let value = words.value() else { return nil }; variables.append(value)
            case "--catalog": guard let value = words.value() else { return nil }; catalog = value
            case "--path-pattern": guard let value = words.value() else { return nil }; pathPattern = value
            case "--match": guard let value = words.value() else { return nil }; match = value
            case "--output": guard let value = words.value() else { return nil }; output = value
            case "--shard": guard let value = words.value() else { return nil }; shard = value
            case "--report": guard let value = words.value() else { return nil }; reports.append(value)
            case "--jobs": guard let value = words.value().flatMap(Int.init) else { return nil }; jobs = value
            case "--max-line-length":
                guard let value = words.value().flatMap(ByteCount.init(argument:)) else { return nil }
                limits.line = value.bytes
            case "--max-playlist-size":
                guard let value = words.value().flatMap(ByteCount.init(argument:)) else { return nil }
                limits.size = value.bytes
            case "--max-segments":
                guard let value = words.value().flatMap(Int.init) else { return nil }
                limits.segments = value
            default:
                return nil
            }
        }
        guard let template else { return nil }

        // Every property set, as ArgumentParser's decoding would: one left unset would trap when read.
        var templateOptions = TemplateOptions()
        templateOptions.template = template
        templateOptions.variables = variables
        templateOptions.catalog = catalog
        templateOptions.pathPattern = pathPattern
        templateOptions.match = match
        var library = LibraryOptions()
        library.jobs = jobs
        library.shard = shard
        library.noProgress = flags.contains("--no-progress")
        var readerLimits = ReaderLimitOptions()
        readerLimits.maxLineLength = ByteCount(limits.line)
        readerLimits.maxPlaylistSize = ByteCount(limits.size)
        readerLimits.maxSegments = limits.segments
        var command = ApplyCommand()
        command.templateOptions = templateOptions
        command.paths = paths
        command.inPlace = flags.contains("--in-place")
        command.output = output
        command.check = flags.contains("--check")
        command.diff = flags.contains("--diff")
        command.assumeEncrypted = flags.contains("--assume-encrypted")
        command.sessionKeys = flags.contains("--session-keys")
        command.followSymlinks = flags.contains("--follow-symlinks")
        command.library = library
        command.limits = readerLimits
        command.report = reports
        return command
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
