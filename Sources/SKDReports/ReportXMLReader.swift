import HLS
import SKDReportModel
import SKDTemplate
import SKDXML

/// Reads an XML report (``ReportXML``'s) back into the model: `report merge` joins shards that wrote XML
/// as it joins JSON ones. The document is checked as it is read: the namespace, every element and
/// attribute the model needs, and every value's type; the summary is computed again from the playlists.
public enum ReportXMLReader {
    /// A report's text as read back: skdpack redacted it when it wrote the report.
    private static func shown(_ text: String) -> Redacted { Redacted(readBack: text) }

    /// Not an skdpack XML report, with where and why.
    public struct Malformed: Error, CustomStringConvertible {
        public var description: String
    }

    public static func decode(_ bytes: [UInt8]) throws -> Report {
        let root: XMLElement
        do {
            root = try XMLDocumentReader.read(bytes, encoding: "UTF-8")
        } catch {
            throw Malformed(description: error.description)
        }
        guard root.name == "report", root.namespace == ReportSchemas.xmlNamespace else {
            throw Malformed(description: "the root element is not <report xmlns=\"\(ReportSchemas.xmlNamespace)\">")
        }
        let version = try root.attribute("schemaVersion")
        guard Report.readableSchemaVersions.contains(version) else {
            throw Malformed(
                description:
                    "schema version \(version); this skdpack reads versions \(Report.readableSchemaVersions.joined(separator: ", "))")
        }
        let tool = try root.required("tool")
        let runElement = try root.required("run")
        let run = Report.Run(
            command: try runElement.attribute("command"),
            arguments: runElement.children("argument").map { shown($0.text) },
            template: runElement.attributes["template"].map(shown),
            startedAt: try runElement.attribute("startedAt"),
            durationMilliseconds: try runElement.number("durationMilliseconds"),
            shard: runElement.attributes["shard"],
            partial: runElement.attributes["partial"] == "true" ? true : nil,
            missingShards: runElement.children("missingShard").isEmpty ? nil : runElement.children("missingShard").map(\.text),
            notDone: runElement.attributes["notDone"] == nil ? nil : try runElement.number("notDone"))
        let playlists = try root.required("playlists").children("playlist").map(playlist)
        var report = Report(
            tool: Report.Tool(name: try tool.attribute("name"), version: try tool.attribute("version")), run: run, playlists: playlists)
        report.schemaVersion = version
        return report
    }

    private static func playlist(_ element: XMLElement) throws -> Report.Playlist {
        let changes = try element.required("changes").children("change").map { change in
            ApplyChange(
                line: try change.number("line"), tag: try change.attribute("tag"),
                action: try change.value("action", as: ApplyChange.Action.self),
                before: change.children("before").first.map { shown($0.text) },
                after: change.children("after").first.map { shown($0.text) },
                kid: change.attributes["kid"],
                kidSource: try change.attributes["kidSource"].map { _ in try change.value("kidSource", as: ApplyChange.KeyIDSource.self) },
                kidFile: change.attributes["kidFile"])
        }
        let findings = try element.required("diagnostics").children("diagnostic").map { finding in
            Report.Finding(
                rule: try finding.attribute("rule"), severity: try finding.value("severity", as: Severity.self),
                line: try finding.number("line"), column: try finding.number("column"), message: shown(finding.text))
        }
        return Report.Playlist(
            path: try element.attribute("path"), package: try element.attribute("package"),
            kind: try element.value("kind", as: PlaylistKind.self),
            status: try element.value("status", as: Report.Playlist.Status.self), changes: changes, diagnostics: findings,
            measured: try element.children("measured").first.map(measured), declared: try element.children("declared").first.map(declared),
            keyPeriods: try element.children("keyPeriods").first.map { list in
                try list.children("keyPeriod").map { period in
                    Report.KeyPeriod(
                        line: try period.number("line"), firstSegment: try period.number("firstSegment"),
                        startMilliseconds: try period.number("startMilliseconds"),
                        durationMilliseconds: try period.number("durationMilliseconds"),
                        keys: try period.children("key").map { key in
                            Report.KeyPeriod.Key(
                                format: try key.attribute("format"), method: try key.attribute("method"),
                                uri: key.text.isEmpty ? nil : shown(key.text), keyID: key.attributes["keyID"])
                        })
                }
            },
            keyURIs: try element.children("keyURIs").first.map { list in
                try list.children("keyURI").map { uri in
                    Report.KeyURI(line: try uri.number("line"), digest: uri.attributes["digest"], keyID: uri.attributes["keyID"])
                }
            })
    }

    private static func declared(_ element: XMLElement) throws -> Report.Declared {
        Report.Declared(
            variants: try element.children("variant").map { variant in
                func optional(_ name: String) throws -> Int? { variant.attributes[name] == nil ? nil : try variant.number(name) }
                return Report.Declared.Variant(
                    line: try variant.number("line"), uri: shown(variant.text), bandwidth: try optional("bandwidth"),
                    averageBandwidth: try optional("averageBandwidth"), codecs: variant.attributes["codecs"],
                    resolution: variant.attributes["resolution"], frameRate: variant.attributes["frameRate"],
                    audio: variant.attributes["audio"])
            },
            renditions: try element.children("rendition").map { rendition in
                Report.Declared.Rendition(
                    line: try rendition.number("line"), type: try rendition.attribute("type"), group: try rendition.attribute("group"),
                    name: rendition.attributes["name"].map(shown), uri: rendition.text.isEmpty ? nil : shown(rendition.text),
                    channels: rendition.attributes["channels"] == nil ? nil : try rendition.number("channels"))
            })
    }

    private static func measured(_ element: XMLElement) throws -> Report.Measured {
        func optional(_ name: String) throws -> Int? { element.attributes[name] == nil ? nil : try element.number(name) }
        return Report.Measured(
            segmentsRead: try element.number("segmentsRead"), segmentsNotMeasured: try element.number("segmentsNotMeasured"),
            bytesRead: try element.number("bytesRead"), durationMilliseconds: try element.number("durationMilliseconds"),
            peakBitRate: try optional("peakBitRate"), averageBitRate: try optional("averageBitRate"),
            codecs: element.children("codec").map(\.text), resolution: element.attributes["resolution"],
            channels: try optional("channels"),
            segments: try element.children("segment").map { segment in
                Report.Measured.Segment(
                    line: try segment.number("line"), uri: shown(segment.text),
                    durationMilliseconds: try segment.number("durationMilliseconds"), bytes: try segment.number("bytes"),
                    bitRate: try segment.number("bitRate"),
                    extinfMilliseconds: segment.attributes["extinfMilliseconds"] == nil ? nil : try segment.number("extinfMilliseconds"))
            })
    }
}

/// The report reader's checked access to an element: a missing part or a value of the wrong type is
/// ``ReportXMLReader/Malformed``, with the element's line.
extension XMLElement {
    fileprivate func required(_ name: String) throws -> XMLElement {
        guard let child = child(name) else {
            throw ReportXMLReader.Malformed(description: "line \(line): <\(self.name)> has no <\(name)>")
        }
        return child
    }

    fileprivate func attribute(_ name: String) throws -> String {
        guard let value = attributes[name] else {
            throw ReportXMLReader.Malformed(description: "line \(line): <\(self.name)> has no \(name) attribute")
        }
        return value
    }

    fileprivate func number(_ name: String) throws -> Int {
        let text = try attribute(name)
        guard let value = Int(text) else {
            throw ReportXMLReader.Malformed(description: "line \(line): \(name)=\"\(text)\" of <\(self.name)> is not a number")
        }
        return value
    }

    fileprivate func value<Value: RawRepresentable<String>>(_ name: String, as type: Value.Type) throws -> Value {
        let text = try attribute(name)
        guard let value = Value(rawValue: text) else {
            throw ReportXMLReader.Malformed(
                description: "line \(line): \(name)=\"\(text)\" of <\(self.name)> is not one skdpack writes")
        }
        return value
    }
}
