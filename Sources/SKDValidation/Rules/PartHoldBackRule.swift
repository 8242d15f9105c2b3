import HLS

/// rfc8216bis 4.4.3.8: PART-HOLD-BACK "MUST be at least twice the Part Target Duration" (HLS-server-control)
/// and "SHOULD be at least three times the Part Target Duration": closer to the live edge, a player
/// stalls on the first late part.
struct PartHoldBackRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-part-hold-back", severity: .warning,
        summary: "PART-HOLD-BACK is at least twice but less than three times the Part Target Duration.",
        specSection: "rfc8216bis-22 4.4.3.8 (PART-HOLD-BACK)")

    static let tags: Set<TagName>? = [.partInf, .serverControl]
    static let watchesSegments = false

    private var partTarget: Double?
    private var holdBack: (value: Double, place: RulePlace)?

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        switch tag.name {
        case .partInf:
            partTarget = tag.decimalFloat("PART-TARGET")
        case .serverControl:
            if let value = tag.decimalFloat("PART-HOLD-BACK"), let attribute = tag.attributes?["PART-HOLD-BACK"] {
                holdBack = (value, context.place(line, column: attribute.column))
            }
        default:
            break
        }
    }

    mutating func finish(in context: RuleContext) {
        // Below twice the part target is the MUST's (HLS-server-control): one finding for one value.
        guard let partTarget, let holdBack, holdBack.value >= 2 * partTarget, holdBack.value < 3 * partTarget else { return }
        context.report(
            Self.kind,
            "PART-HOLD-BACK=\(holdBack.value) is below three times the part target duration (\(3 * partTarget) s): "
                + "players this close to the live edge stall on the first late part; raise it to \(3 * partTarget)",
            at: holdBack.place)
    }
}
