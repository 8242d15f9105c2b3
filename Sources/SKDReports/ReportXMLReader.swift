import HLS
import SKDPack

/// Reads an XML report (``ReportXML``'s) back into the model: `report merge` joins shards that wrote XML
/// as it joins JSON ones. The document is checked as it is read: the namespace, every element and
/// attribute the model needs, and every value's type; the summary is computed again from the playlists.
public enum ReportXMLReader {
    /// Not an skdpack XML report, with where and why.
    public struct Malformed: Error, CustomStringConvertible {
        public var description: String
    }

    public static func decode(_ bytes: [UInt8]) throws -> Report {
        let root = try ElementTree.parse(bytes)
        guard root.name == "report", root.namespace == ReportSchemas.xmlNamespace else {
            throw Malformed(description: "the root element is not <report xmlns=\"\(ReportSchemas.xmlNamespace)\">")
        }
        let version = try root.attribute("schemaVersion")
        guard version == Report.currentSchemaVersion else {
            throw Malformed(description: "schema version \(version); this skdpack reads version \(Report.currentSchemaVersion)")
        }
        let tool = try root.child("tool")
        let runElement = try root.child("run")
        let run = Report.Run(
            command: try runElement.attribute("command"),
            arguments: runElement.children("argument").map(\.text),
            template: runElement.attributes["template"],
            startedAt: try runElement.attribute("startedAt"),
            durationMilliseconds: try runElement.number("durationMilliseconds"),
            shard: runElement.attributes["shard"],
            partial: runElement.attributes["partial"] == "true" ? true : nil,
            missingShards: runElement.children("missingShard").isEmpty ? nil : runElement.children("missingShard").map(\.text))
        let playlists = try root.child("playlists").children("playlist").map(playlist)
        var report = Report(
            tool: Report.Tool(name: try tool.attribute("name"), version: try tool.attribute("version")), run: run, playlists: playlists)
        report.schemaVersion = version
        return report
    }

    private static func playlist(_ element: Element) throws -> Report.Playlist {
        let changes = try element.child("changes").children("change").map { change in
            ApplyChange(
                line: try change.number("line"), tag: try change.attribute("tag"),
                action: try change.value("action", as: ApplyChange.Action.self),
                before: change.children("before").first?.text, after: change.children("after").first?.text)
        }
        let findings = try element.child("diagnostics").children("diagnostic").map { finding in
            Report.Finding(
                rule: try finding.attribute("rule"), severity: try finding.value("severity", as: Severity.self),
                line: try finding.number("line"), column: try finding.number("column"), message: finding.text)
        }
        return Report.Playlist(
            path: try element.attribute("path"), package: try element.attribute("package"),
            kind: try element.value("kind", as: PlaylistKind.self),
            status: try element.value("status", as: Report.Playlist.Status.self), changes: changes, diagnostics: findings)
    }

    /// An element of the document, with its attributes, its text and its child elements.
    final class Element {
        let name: String
        let namespace: String
        let line: Int
        var attributes: [String: String] = [:]
        var text = ""
        var elements: [Element] = []

        init(name: String, namespace: String, line: Int) {
            self.name = name
            self.namespace = namespace
            self.line = line
        }

        func children(_ name: String) -> [Element] { elements.filter { $0.name == name } }

        func child(_ name: String) throws -> Element {
            guard let child = elements.first(where: { $0.name == name }) else {
                throw Malformed(description: "line \(line): <\(self.name)> has no <\(name)>")
            }
            return child
        }

        func attribute(_ name: String) throws -> String {
            guard let value = attributes[name] else {
                throw Malformed(description: "line \(line): <\(self.name)> has no \(name) attribute")
            }
            return value
        }

        func number(_ name: String) throws -> Int {
            let text = try attribute(name)
            guard let value = Int(text) else {
                throw Malformed(description: "line \(line): \(name)=\"\(text)\" of <\(self.name)> is not a number")
            }
            return value
        }

        func value<Value: RawRepresentable<String>>(_ name: String, as type: Value.Type) throws -> Value {
            let text = try attribute(name)
            guard let value = Value(rawValue: text) else {
                throw Malformed(description: "line \(line): \(name)=\"\(text)\" of <\(self.name)> is not one skdpack writes")
            }
            return value
        }
    }

    /// The document as a tree, read with libxml2's pull parser (no network, no DTD, no entity expansion).
    enum ElementTree {
        static func parse(_ bytes: [UInt8]) throws -> Element {
            let xml = try LibXML2Reader.load()
            guard let document = XMLTextReader(bytes, encoding: "UTF-8", functions: xml) else {
                throw Malformed(description: "the document could not be opened")
            }
            let reader = document.reader
            var root: Element?
            var open: [Element] = []
            while true {
                let status = xml.read(reader)
                if status == 0 { break }
                guard status > 0 else {
                    throw Malformed(description: "line \(xml.lineNumber(reader)): not well-formed XML")
                }
                switch LibXML2Reader.NodeType(rawValue: xml.nodeType(reader)) {
                case .element:
                    let element = Element(
                        name: string(xml.localName(reader)), namespace: string(xml.namespaceURI(reader)),
                        line: xml.nodeLine(xml.currentNode(reader)))
                    let isEmpty = xml.isEmptyElement(reader) == 1
                    while xml.moveToNextAttribute(reader) == 1 {
                        element.attributes[string(xml.localName(reader))] = string(xml.value(reader))
                    }
                    _ = xml.moveToElement(reader)
                    if let parent = open.last {
                        parent.elements.append(element)
                    } else if root == nil {
                        root = element
                    }
                    if !isEmpty { open.append(element) }
                case .text, .cdata, .significantWhitespace:
                    open.last?.text += string(xml.value(reader))
                case .endElement:
                    _ = open.popLast()
                case nil:
                    continue
                }
            }
            guard let root else { throw Malformed(description: "the document has no element") }
            return root
        }

        private static func string(_ text: UnsafePointer<UInt8>?) -> String {
            text.map { String(cString: $0) } ?? ""
        }
    }
}
