import SKDReports

/// `--report FILE` of `apply` and `validate`: the format each file's name asks for.
enum ReportOptions {
    static let help = "Write a report to FILE (repeatable); the format follows the name: .json, .xml, .junit.xml, .sarif, .html."

    static func targets(_ files: [String]) throws -> [(target: ReportFiles.Target, format: ReportFormat)] {
        try files.map { file in
            guard let format = ReportFormat(fileName: file) else {
                throw UsageFailure("--report \(file): name it .json, .xml, .junit.xml, .sarif or .html to choose its format")
            }
            return (.file(file), format)
        }
    }
}
