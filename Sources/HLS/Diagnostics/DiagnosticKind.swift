/// A kind of finding with its fixed properties: the catalogue entry behind each ``Diagnostic``.
///
/// `specSection` names the section of RFC 8216 (or of rfc8216bis, prefixed `bis`) that the finding enforces,
/// so a user can look up why it matters; a finding that enforces another document names it
/// (`ISO/IEC 23001-7 8.2`, `CPIX 2.4: ContentKey`).
public struct DiagnosticKind: Hashable, Sendable {
    public let id: DiagnosticID
    public let severity: Severity
    /// One line: what the finding is about.
    public let summary: String
    public let specSection: String

    public init(id: DiagnosticID, severity: Severity, summary: String, specSection: String) {
        self.id = id
        self.severity = severity
        self.summary = summary
        self.specSection = specSection
    }

    /// The document ``specSection`` is in and the section's number: `("RFC 8216", "4.3.2.4")`, or
    /// `("rfc8216bis", "4.4.2.3")` for a section written `bis 4.4.2.3`.
    public var specReference: (document: String, section: String) {
        specSection.hasPrefix("bis ") ? ("rfc8216bis", String(specSection.dropFirst(4))) : ("RFC 8216", specSection)
    }

    /// How to cite ``specSection`` in a sentence: `RFC 8216 section 4.3.2.4`, `rfc8216bis section 4.4.2.3`,
    /// or, where it names its own documents, as written.
    public var citation: String {
        guard specSection.first?.isNumber == true || specSection.hasPrefix("bis ") else { return specSection }
        let reference = specReference
        return "\(reference.document) section \(reference.section)"
    }

    /// A diagnostic of this kind at `location`.
    public func callAsFunction(_ message: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(id: id, severity: severity, message: message, location: location)
    }
}
