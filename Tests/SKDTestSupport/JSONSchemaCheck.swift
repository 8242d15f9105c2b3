import Foundation

/// A small JSON Schema checker, enough for the shipped report schema: type, const, enum, required,
/// properties, additionalProperties (false), items, minimum, pattern. Unknown keywords fail loudly, so the
/// schema cannot grow a keyword this checker would silently skip.
public struct JSONSchemaCheck {
    public let schema: [String: Any]

    public init(schema bytes: [UInt8]) throws {
        schema = try JSONSerialization.jsonObject(with: Data(bytes)) as! [String: Any]
    }

    /// Problems of `document` against the schema, as `path: problem`; empty when it is valid.
    public func problems(in bytes: [UInt8]) throws -> [String] {
        let document = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
        var problems: [String] = []
        check(document, against: schema, at: "$", into: &problems)
        return problems
    }

    private static let annotations: Set<String> = ["$schema", "$id", "title", "description", "format"]

    private func check(_ value: Any, against schema: [String: Any], at path: String, into problems: inout [String]) {
        for (keyword, rule) in schema {
            switch keyword {
            case _ where Self.annotations.contains(keyword):
                continue
            case "type":
                if !Self.hasType(value, rule as! String) { problems.append("\(path): not of type \(rule)") }
            case "const":
                if !Self.equal(value, rule) { problems.append("\(path): not \(rule)") }
            case "enum":
                if !(rule as! [Any]).contains(where: { Self.equal(value, $0) }) { problems.append("\(path): \(value) not in \(rule)") }
            case "required":
                guard let object = value as? [String: Any] else { continue }
                for name in rule as! [String] where object[name] == nil { problems.append("\(path): \(name) missing") }
            case "properties":
                guard let object = value as? [String: Any] else { continue }
                for (name, subschema) in rule as! [String: Any] {
                    if let member = object[name] {
                        check(member, against: subschema as! [String: Any], at: "\(path).\(name)", into: &problems)
                    }
                }
            case "additionalProperties":
                guard let object = value as? [String: Any], (rule as? Bool) == false else { continue }
                let known = Set(((schema["properties"] as? [String: Any]) ?? [:]).keys)
                for name in object.keys where !known.contains(name) { problems.append("\(path): unexpected \(name)") }
            case "items":
                guard let array = value as? [Any] else { continue }
                for (index, item) in array.enumerated() {
                    check(item, against: rule as! [String: Any], at: "\(path)[\(index)]", into: &problems)
                }
            case "minimum":
                if let number = value as? NSNumber, number.doubleValue < (rule as! NSNumber).doubleValue {
                    problems.append("\(path): \(number) below \(rule)")
                }
            case "pattern":
                if let text = value as? String, text.range(of: rule as! String, options: .regularExpression) == nil {
                    problems.append("\(path): \(text) does not match \(rule)")
                }
            default:
                problems.append("\(path): the checker does not know the keyword \(keyword)")
            }
        }
    }

    private static func hasType(_ value: Any, _ type: String) -> Bool {
        switch type {
        case "object": return value is [String: Any]
        case "array": return value is [Any]
        case "string": return value is String
        case "integer":
            guard let number = value as? NSNumber else { return false }
            return number.doubleValue.rounded() == number.doubleValue
        case "boolean": return value is Bool
        default: return false
        }
    }

    private static func equal(_ lhs: Any, _ rhs: Any) -> Bool {
        (lhs as? NSObject)?.isEqual(rhs) ?? false
    }
}
