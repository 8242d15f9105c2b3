/// The published schemas of the report formats, shipped in the binary (SwiftPM resources embedded in
/// code, so no file needs to sit beside an installed `skdpack`). `skdpack report schema` prints them.
public enum ReportSchemas {
    /// The namespace of the XML report; it names the schema version.
    public static let xmlNamespace = "urn:skdpack:report:1"

    /// The XSD of ``ReportXML``.
    public static var xsd: [UInt8] { PackageResources.skdpack_report_xsd }

    /// The JSON Schema (draft 2020-12) of ``ReportJSON``.
    public static var jsonSchema: [UInt8] { PackageResources.skdpack_report_schema_json }
}
