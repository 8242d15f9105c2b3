/// `apply` parsed without swift-argument-parser, from its ``OptionTable``, for the plain command lines a
/// packaging pipeline runs once per rendition. ArgumentParser builds its view of every command by
/// reflection, and that costs about 1.5 ms a run, a quarter of an `apply` of a 20,000-segment playlist.
enum ApplyFastPath {
    typealias Table = OptionTable<ApplySettings>

    /// `apply`'s options: what each sets in ``ApplySettings``, most of them in its ``ApplyRequest``. (Lists of one kind each, typed: one list of
    /// every kind is more than the type checker will take.)
    static let table = Table(options: flags + values + numbers + Table.lifting(InputSettings.options, into: \.input), paths: \.paths)

    private static let flags: [Table.Option] = [
        Table.flag("--in-place", \.inPlace), Table.flag("--check", \.check), Table.flag("--diff", \.diff),
        Table.flag("--assume-encrypted", \.request.assumeEncrypted), Table.flag("--session-keys", \.request.sessionKeys),
        Table.flag("--allow-shared-content-id", \.allowSharedContentID), Table.flag("--validate", \.request.validatesWrites),
    ]

    private static let values: [Table.Option] = [
        Table.value("--template") { $0.request.template = $1 }, Table.value("--catalog") { $0.request.values.catalog = $1 },
        Table.value("--path-pattern") { $0.request.values.pathPattern = $1 }, Table.value("--match") { $0.request.values.match = $1 },
        Table.value("--output") { $0.output = $1 }, Table.value("--kid-from") { $0.request.kidFrom = $1 },
        Table.repeated("--var", \.request.values.values), Table.repeated("--var-file", \.request.values.valueFiles),
        Table.repeated("--report", \.reports), Table.repeated("--cpix", \.request.cpix),
        Table.repeated("--disable", \.request.ignoredFindings),
    ]

    private static let numbers: [Table.Option] = [
        Table.number("--lock-wait", \.request.titleLockWait) { Double($0) },
        Table.number("--max-init-size", \.request.maximumInitSize, Table.size),
    ]

    /// The settings that `arguments` (the words after the executable's name) make, or `nil` to let
    /// ArgumentParser parse them (``OptionTable/read(_:into:)``; a missing `--template` too).
    static func settings(_ arguments: [String]) -> ApplySettings? {
        guard arguments.first == "apply" else { return nil }
        return read(arguments.dropFirst())
    }

    private static func read(_ arguments: ArraySlice<String>) -> ApplySettings? {
        guard let read = table.read(arguments, into: ApplySettings(template: "")), read.given.contains("--template")
        else { return nil }
        return read.settings
    }
}
