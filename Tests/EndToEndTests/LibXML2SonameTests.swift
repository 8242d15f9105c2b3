import Foundation
import SKDReportCheck
import SKDTestSupport
import Testing

/// libxml2 2.14 renamed its library `libxml2.so.16`; distributions carry one or the other. skdpack opens
/// whichever is there (the newer first) and writes and reads the same reports with either. The dynamic
/// loader's own trace (`LD_DEBUG=libs`) says which file was loaded.
@Suite("libxml2 under either soname")
struct LibXML2SonameTests {
    /// The libxml2.so.2 this machine has, from the loader's cache.
    static func installedLibrary() throws -> String {
        let ldconfig = Process()
        ldconfig.executableURL = URL(fileURLWithPath: "/sbin/ldconfig")
        ldconfig.arguments = ["-p"]
        let pipe = Pipe()
        ldconfig.standardOutput = pipe
        try ldconfig.run()
        let listing = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ldconfig.waitUntilExit()
        let line = try #require(listing.split(separator: "\n").first { $0.contains("libxml2.so.2 ") })
        return try #require(line.components(separatedBy: " => ").last)
    }

    /// Validates the example library with an XML report under `environment`; the report and the loader's trace.
    static func xmlReport(_ environment: [String: String]) throws -> (report: [UInt8], trace: String) {
        var environment = environment
        environment["LD_DEBUG"] = "libs"
        let result = try SKDPackRunner.run(
            ["validate", "--format", "xml", PackageLocation.root.appendingPathComponent("examples/library").path], environment: environment)
        #expect(result.status == 0 || result.status == 1, "\(result.stderr)")
        return ([UInt8](result.stdout), result.stderr)
    }

    @Test("libxml2.so.16 when it is there, libxml2.so.2 otherwise: the same valid report either way")
    func eitherSoname() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("skdpack-so16-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // A libxml2.so.16 of the same library: the functions skdpack calls have the same types in 2.14.
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("libxml2.so.16").path, withDestinationPath: try Self.installedLibrary())
        let new = try Self.xmlReport(["LD_LIBRARY_PATH": directory.path])
        #expect(new.trace.contains("calling init: \(directory.path)/libxml2.so.16"))
        let old = try Self.xmlReport([:])
        #expect(old.trace.contains("find library=libxml2.so.16"), "the newer soname is tried first")
        #expect(old.trace.contains("calling init: \(try Self.installedLibrary())"))
        let xsd = try XMLSchemaValidator(xsd: [UInt8](try SKDPackRunner.run(["report", "schema", "--format", "xml"]).stdout))
        for report in [new.report, old.report] {
            #expect(xsd.problems(in: report) == [])
        }
        // Only the run's time differs between the two.
        let withoutTime = { (report: [UInt8]) in
            String(decoding: report, as: UTF8.self).split(separator: "\n").filter { !$0.contains("<run ") }
        }
        #expect(withoutTime(new.report) == withoutTime(old.report))
    }
}
