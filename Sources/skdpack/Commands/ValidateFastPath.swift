/// `validate` parsed without swift-argument-parser, from its ``OptionTable``: ArgumentParser's reflection is
/// most of the time of a small run, and CI validates titles one by one.
enum ValidateFastPath {
    typealias Table = OptionTable<ValidateSettings>

    /// `validate`'s options: what each sets in ``ValidateSettings``, most of them in its ``ValidateRequest``. (Lists of one kind each, typed: one list
    /// of every kind is more than the type checker will take.)
    static let table = Table(options: flags + values + numbers + Table.lifting(InputSettings.options, into: \.input), paths: \.paths)

    private static let flags: [Table.Option] = [
        Table.flag("--warnings-as-errors", \.request.warningsAsErrors), Table.flag("--media", \.request.media),
        Table.flag("--segments", \.request.segments),
    ]

    private static let values: [Table.Option] = [
        Table.number("--format", \.format) { ValidateCommand.Format(argument: $0) },
        Table.value("--template") { $0.request.template = $1 }, Table.value("--catalog") { $0.request.values.catalog = $1 },
        Table.value("--path-pattern") { $0.request.values.pathPattern = $1 },
        Table.repeated("--report", \.reports), Table.repeated("--disable", \.request.disabledRules),
        Table.repeated("--var", \.request.values.values), Table.repeated("--var-file", \.request.values.valueFiles),
        Table.repeated("--allow-host", \.request.allowHosts), Table.repeated("--cpix", \.request.cpix),
    ]

    private static let numbers: [Table.Option] = [
        Table.number("--max-uri-length", \.request.maximumURILength) { Int($0) },
        Table.number("--max-init-size", \.request.maximumInitSize, Table.size),
    ]

    /// The settings that `arguments` (the words after the executable's name) make, or `nil` to let
    /// ArgumentParser parse them (``OptionTable/read(_:into:)``; a line without a path too).
    static func settings(_ arguments: [String]) -> ValidateSettings? {
        guard arguments.first == "validate" else { return nil }
        return read(arguments.dropFirst())
    }

    private static func read(_ arguments: ArraySlice<String>) -> ValidateSettings? {
        guard let read = table.read(arguments, into: ValidateSettings()), !read.settings.paths.isEmpty
        else { return nil }
        return read.settings
    }
}
