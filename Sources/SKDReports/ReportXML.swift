import HLS
import SKDReportModel

/// The report as XML, in the namespace of ``ReportSchemas/xmlNamespace`` and valid against the shipped
/// XSD: elements in a fixed order, attributes for scalars, text for lines and messages. The playlists come
/// before the run and the summary, so that a long report can be written as its playlists come
/// (``ReportXMLStream``).
public enum ReportXML {
    public static func encode(_ report: Report) throws -> [UInt8] {
        let stream = try ReportXMLStream(tool: report.tool)
        var bytes = try stream.start()
        for playlist in report.playlists { bytes += try stream.add(playlist) }
        return bytes + (try stream.finish(run: report.run, summary: report.summary))
    }
}

/// The XML report written piece by piece: `start`, then `add` for each playlist in report order, then
/// `finish`; each call returns the bytes to append to the file, so memory holds one playlist's worth.
public final class ReportXMLStream: ReportStream {
    private let xml: XMLDocumentWriter
    private let tool: Report.Tool

    public init(tool: Report.Tool) throws {
        xml = try XMLDocumentWriter()
        self.tool = tool
    }

    public func start() throws -> [UInt8] {
        try xml.startDocument()
        try xml.startElement("report")
        try xml.attribute("xmlns", ReportSchemas.xmlNamespace)
        try xml.attribute("schemaVersion", Report.currentSchemaVersion)
        try xml.element("tool", ["name": tool.name, "version": tool.version])
        try xml.startElement("playlists")
        return try xml.drain()
    }

    public func add(_ playlist: Report.Playlist) throws -> [UInt8] {
        try Self.writePlaylist(playlist, to: xml)
        return try xml.drain()
    }

    public func finish(run: Report.Run, summary: Report.Summary) throws -> [UInt8] {
        try xml.endElement()
        try Self.writeRun(run, to: xml)
        try Self.writeSummary(summary, to: xml)
        try xml.endElement()
        return try xml.finish()
    }

    private static func writeRun(_ run: Report.Run, to xml: XMLDocumentWriter) throws {
        try xml.startElement("run")
        try xml.attribute("command", run.command)
        if let template = run.template { try xml.attribute("template", template.text) }
        try xml.attribute("startedAt", run.startedAt)
        try xml.attribute("durationMilliseconds", run.durationMilliseconds)
        if let shard = run.shard { try xml.attribute("shard", shard) }
        if run.partial == true { try xml.attribute("partial", "true") }
        if let notDone = run.notDone { try xml.attribute("notDone", notDone) }
        for argument in run.arguments { try xml.element("argument", text: argument.text) }
        for missing in run.missingShards ?? [] { try xml.element("missingShard", text: missing) }
        try xml.endElement()
    }

    private static func writeSummary(_ summary: Report.Summary, to xml: XMLDocumentWriter) throws {
        try xml.startElement("summary")
        let counts: [(String, Int)] = [
            ("playlistsRead", summary.playlistsRead), ("changed", summary.changed), ("unchanged", summary.unchanged),
            ("failed", summary.failed), ("keysRewritten", summary.keysRewritten),
            ("keysInserted", summary.keysInserted), ("keysRemoved", summary.keysRemoved),
            ("sessionKeys", summary.sessionKeys), ("errors", summary.errors), ("warnings", summary.warnings),
            ("infos", summary.infos),
        ]
        for (name, value) in counts { try xml.attribute(name, value) }
        try xml.endElement()
    }

    private static func writePlaylist(_ playlist: Report.Playlist, to xml: XMLDocumentWriter) throws {
        try xml.startElement("playlist")
        try xml.attribute("path", playlist.path)
        try xml.attribute("package", playlist.package)
        try xml.attribute("kind", playlist.kind.rawValue)
        try xml.attribute("status", playlist.status.rawValue)
        try xml.startElement("changes")
        for change in playlist.changes {
            try xml.startElement("change")
            try xml.attribute("line", change.line)
            try xml.attribute("tag", change.tag)
            try xml.attribute("action", change.action.rawValue)
            if let kid = change.kid { try xml.attribute("kid", kid) }
            if let source = change.kidSource { try xml.attribute("kidSource", source.rawValue) }
            if let file = change.kidFile { try xml.attribute("kidFile", file) }
            if let before = change.before { try xml.element("before", text: before.text) }
            if let after = change.after { try xml.element("after", text: after.text) }
            try xml.endElement()
        }
        try xml.endElement()
        try xml.startElement("diagnostics")
        for finding in playlist.diagnostics {
            try xml.startElement("diagnostic")
            try xml.attribute("rule", finding.rule)
            try xml.attribute("severity", finding.severity.rawValue)
            try xml.attribute("line", finding.line)
            try xml.attribute("column", finding.column)
            try xml.text(finding.message.text)
            try xml.endElement()
        }
        try xml.endElement()
        if let measured = playlist.measured { try writeMeasured(measured, to: xml) }
        if let declared = playlist.declared { try writeDeclared(declared, to: xml) }
        if let periods = playlist.keyPeriods {
            try xml.startElement("keyPeriods")
            for period in periods {
                try xml.startElement("keyPeriod")
                try xml.attribute("line", period.line)
                try xml.attribute("firstSegment", period.firstSegment)
                try xml.attribute("startMilliseconds", period.startMilliseconds)
                try xml.attribute("durationMilliseconds", period.durationMilliseconds)
                for key in period.keys {
                    try xml.startElement("key")
                    try xml.attribute("format", key.format)
                    try xml.attribute("method", key.method)
                    if let keyID = key.keyID { try xml.attribute("keyID", keyID) }
                    if let uri = key.uri { try xml.text(uri.text) }
                    try xml.endElement()
                }
                try xml.endElement()
            }
            try xml.endElement()
        }
        if let uris = playlist.keyURIs {
            try xml.startElement("keyURIs")
            for uri in uris {
                try xml.startElement("keyURI")
                try xml.attribute("line", uri.line)
                if let digest = uri.digest { try xml.attribute("digest", digest) }
                if uri.holdsSecret == true { try xml.attribute("holdsSecret", "true") }
                if let keyID = uri.keyID { try xml.attribute("keyID", keyID) }
                try xml.endElement()
            }
            try xml.endElement()
        }
        try xml.endElement()
    }

    private static func writeDeclared(_ declared: Report.Declared, to xml: XMLDocumentWriter) throws {
        try xml.startElement("declared")
        for variant in declared.variants {
            try xml.startElement("variant")
            try xml.attribute("line", variant.line)
            if let rate = variant.bandwidth { try xml.attribute("bandwidth", rate) }
            if let rate = variant.averageBandwidth { try xml.attribute("averageBandwidth", rate) }
            if let codecs = variant.codecs { try xml.attribute("codecs", codecs) }
            if let resolution = variant.resolution { try xml.attribute("resolution", resolution) }
            if let rate = variant.frameRate { try xml.attribute("frameRate", rate) }
            if let audio = variant.audio { try xml.attribute("audio", audio) }
            try xml.text(variant.uri.text)
            try xml.endElement()
        }
        for rendition in declared.renditions {
            try xml.startElement("rendition")
            try xml.attribute("line", rendition.line)
            try xml.attribute("type", rendition.type)
            try xml.attribute("group", rendition.group)
            if let name = rendition.name { try xml.attribute("name", name.text) }
            if let channels = rendition.channels { try xml.attribute("channels", channels) }
            if let uri = rendition.uri { try xml.text(uri.text) }
            try xml.endElement()
        }
        try xml.endElement()
    }

    private static func writeMeasured(_ measured: Report.Measured, to xml: XMLDocumentWriter) throws {
        try xml.startElement("measured")
        try xml.attribute("segmentsRead", measured.segmentsRead)
        try xml.attribute("segmentsNotMeasured", measured.segmentsNotMeasured)
        try xml.attribute("bytesRead", measured.bytesRead)
        try xml.attribute("durationMilliseconds", measured.durationMilliseconds)
        if let rate = measured.peakBitRate { try xml.attribute("peakBitRate", rate) }
        if let rate = measured.averageBitRate { try xml.attribute("averageBitRate", rate) }
        if let resolution = measured.resolution { try xml.attribute("resolution", resolution) }
        if let channels = measured.channels { try xml.attribute("channels", channels) }
        for codec in measured.codecs { try xml.element("codec", text: codec) }
        for segment in measured.segments {
            try xml.startElement("segment")
            try xml.attribute("line", segment.line)
            try xml.attribute("durationMilliseconds", segment.durationMilliseconds)
            try xml.attribute("bytes", segment.bytes)
            try xml.attribute("bitRate", segment.bitRate)
            if let extinf = segment.extinfMilliseconds { try xml.attribute("extinfMilliseconds", extinf) }
            try xml.text(segment.uri.text)
            try xml.endElement()
        }
        try xml.endElement()
    }
}
