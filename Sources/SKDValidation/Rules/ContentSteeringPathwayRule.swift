import HLS

/// rfc8216bis 4.4.6.6: EXT-X-CONTENT-STEERING's PATHWAY-ID "MUST be a legal Pathway ID … that is specified
/// by the PATHWAY-ID attribute of one or more Variant Streams": a client starting on a pathway no variant
/// has has nothing to play until the steering manifest arrives.
struct ContentSteeringPathwayRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-steering-pathway", severity: .error,
        summary: "EXT-X-CONTENT-STEERING names a PATHWAY-ID that no variant stream has.",
        specSection: "rfc8216bis-22 4.4.6.6 (PATHWAY-ID)")

    static let tags: Set<TagName>? = [.contentSteering, .streamInf, .iFrameStreamInf]
    static let watchesSegments = false

    private var steering: (pathway: String, place: RulePlace)?
    private var pathways: Set<String> = []

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        switch tag.name {
        case .contentSteering:
            if let pathway = tag.quotedString("PATHWAY-ID"), let attribute = tag.attributes?["PATHWAY-ID"] {
                steering = (pathway, context.place(line, column: attribute.valueColumn))
            }
        case .streamInf, .iFrameStreamInf:
            pathways.insert(tag.quotedString("PATHWAY-ID") ?? ".")
        default:
            break
        }
    }

    mutating func finish(in context: RuleContext) {
        guard let steering, !pathways.isEmpty, !pathways.contains(steering.pathway) else { return }
        let known = pathways.sorted().map { $0 == "." ? "\".\" (the default, no PATHWAY-ID)" : "\"\($0)\"" }.joined(separator: ", ")
        context.report(
            Self.kind, "PATHWAY-ID=\"\(steering.pathway)\" is the pathway of no variant stream (they have \(known)): name one of them",
            at: steering.place)
    }
}
