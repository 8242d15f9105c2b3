import HLS

/// The hold-backs and skip boundary of EXT-X-SERVER-CONTROL are measured in target durations (rfc8216bis
/// 4.4.3.8): HOLD-BACK "MUST be at least three times the Target Duration", PART-HOLD-BACK "at least twice
/// the Part Target Duration" (and is REQUIRED with EXT-X-PART-INF), CAN-SKIP-UNTIL "at least six times the
/// Target Duration". Shorter values put players closer to the live edge than the server can keep up with.
struct ServerControlRule: ValidationRule {
    static let kind = DiagnosticKind(
        id: "HLS-server-control", severity: .error,
        summary: "EXT-X-SERVER-CONTROL's HOLD-BACK, PART-HOLD-BACK or CAN-SKIP-UNTIL is shorter than its minimum in "
            + "target durations (or PART-HOLD-BACK is missing with EXT-X-PART-INF).",
        specSection: "bis 4.4.3.8")

    static let tags: Set<TagName>? = [.targetDuration, .partInf, .serverControl]
    static let watchesSegments = false

    private struct Limit {
        var name: String
        var value: Double
        var place: RulePlace
    }

    private var limits: [Limit] = []
    private var serverControl: RulePlace?
    private var targetDuration: Double?
    private var partTarget: Double?
    private var partInf: RulePlace?

    mutating func tag(_ tag: Tag, at line: PlaylistLine, in context: RuleContext) {
        switch tag.name {
        case .targetDuration:
            if case .decimalInteger(let value) = tag.value { targetDuration = Double(value) }
        case .partInf:
            partTarget = tag.decimalFloat("PART-TARGET")
            partInf = context.place(line)
        case .serverControl:
            serverControl = context.place(line)
            for name in ["HOLD-BACK", "PART-HOLD-BACK", "CAN-SKIP-UNTIL"] {
                guard let attribute = tag.attributes?[name], let value = tag.decimalFloat(name) else { continue }
                limits.append(Limit(name: name, value: value, place: context.place(line, column: attribute.column)))
            }
        default:
            break
        }
    }

    mutating func finish(in context: RuleContext) {
        guard let serverControl else {
            if let partInf {
                context.report(Self.kind, "a playlist with EXT-X-PART-INF needs EXT-X-SERVER-CONTROL with PART-HOLD-BACK", at: partInf)
            }
            return
        }
        for limit in limits {
            let (unit, times, what): (Double?, Double, String) =
                switch limit.name {
                case "HOLD-BACK": (targetDuration, 3, "three times the target duration")
                case "PART-HOLD-BACK": (partTarget, 2, "twice the part target duration")
                default: (targetDuration, 6, "six times the target duration")
                }
            guard let unit, limit.value < unit * times else { continue }
            context.report(
                Self.kind, "\(limit.name)=\(Self.shown(limit.value)) is below \(what) (\(Self.shown(unit * times)) s)",
                at: limit.place)
        }
        if partInf != nil, !limits.contains(where: { $0.name == "PART-HOLD-BACK" }) {
            context.report(Self.kind, "a playlist with EXT-X-PART-INF needs PART-HOLD-BACK here", at: serverControl)
        }
    }

    private static func shown(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
