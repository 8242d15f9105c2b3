/// `validate` parsed without swift-argument-parser, from its ``OptionTable``: ArgumentParser's reflection is
/// most of the time of a small run, and CI validates titles one by one.
enum ValidateFastPath {
    typealias Table = OptionTable<ValidateSettings>

    /// `validate`'s options: what each sets in ``ValidateSettings``. (Lists of one kind each, typed: one list
    /// of every kind is more than the type checker will take.)
    static let table = Table(options: flags + values + numbers + Table.lifting(InputSettings.options, into: \.input), paths: \.paths)

    private static let flags: [Table.Option] = [
        Table.flag("--warnings-as-errors", \.warningsAsErrors), Table.flag("--media", \.media), Table.flag("--segments", \.segments),
    ]

    private static let values: [Table.Option] = [
        Table.number("--format", \.format) { ValidateCommand.Format(argument: $0) },
        Table.value("--template") { $0.template = $1 }, Table.value("--catalog") { $0.catalog = $1 },
        Table.value("--path-pattern") { $0.pathPattern = $1 },
        Table.repeated("--report", \.reports), Table.repeated("--disable", \.disabledRules), Table.repeated("--var", \.variables),
        Table.repeated("--var-file", \.variableFiles), Table.repeated("--allow-host", \.allowHosts), Table.repeated("--cpix", \.cpix),
    ]

    private static let numbers: [Table.Option] = [
        Table.number("--max-uri-length", \.maxURILength) { Int($0) }, Table.number("--max-init-size", \.maxInitSize, Table.size),
    ]

    /// The settings that `arguments` (the words after the executable's name) make, or `nil` to let
    /// ArgumentParser parse them (``OptionTable/read(_:into:checked:)``; a line without a path too).
    static func settings(_ arguments: [String]) -> ValidateSettings? {
        guard arguments.first == "validate" else { return nil }
        return read(arguments.dropFirst(), checked: false)
    }

    /// The settings of a command line ArgumentParser has parsed and found good: the same table.
    static func settings(checked arguments: ArraySlice<String>) -> ValidateSettings? { read(arguments, checked: true) }

    private static func read(_ arguments: ArraySlice<String>, checked: Bool) -> ValidateSettings? {
        guard let read = table.read(arguments, into: ValidateSettings(), checked: checked), checked || !read.settings.paths.isEmpty
        else { return nil }
        return read.settings
    }
}
