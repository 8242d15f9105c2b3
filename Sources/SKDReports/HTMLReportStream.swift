import HLS
import SKDReportModel
import SKDTemplate

/// The report for people: one self-contained HTML page (no script, no request for a style, font or
/// image: it opens from a mail attachment or a CI artifact), written as the run goes.
///
/// Entries come a package at a time (``Report/Playlist/inReportOrder``): the stream holds one package's
/// entries, writes its section when the next package starts, and keeps across the run only counts by rule
/// and the names of the titles that fail (at most ``listedTitles``). The summary, known at the end, is
/// written last and shown first: the page is a flex column and the summary has `order: -1`.
///
/// Every value from a playlist, a catalogue, a template or a finding is text in the page, escaped where it
/// is written (``escape(_:)``): nothing a title name, URI or message holds can become markup.
public final class HTMLReportStream: ReportStream {
    private let tool: Report.Tool
    /// The package being gathered, and its entries.
    private var package: String?
    private var entries: [Report.Playlist] = []
    /// How the section names each of its playlists (``shortNames(_:)``), made when the section is written.
    private var names: [String: String] = [:]
    private var titles = 0
    private var failingTitles: [(index: Int, name: String)] = []
    private var failingCount = 0
    /// Per rule: severity, findings, the titles they are in.
    private var rules: [String: (severity: Severity, count: Int, titles: Int)] = [:]
    /// The most titles the summary lists by name.
    static let listedTitles = 1000
    /// The most key periods a timeline draws, and the most rows a table lists, per playlist.
    static let drawnPeriods = 400
    static let listedRows = 20

    public init(tool: Report.Tool) {
        self.tool = tool
    }

    public func start() throws -> [UInt8] {
        Array(
            """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="skdpack \(Self.escape(tool.version))">
            <title>skdpack report</title>
            <style>\(Self.style)</style>
            </head>
            <body>
            <main class="report">

            """.utf8)
    }

    public func add(_ playlist: Report.Playlist) throws -> [UInt8] {
        var bytes: [UInt8] = []
        if let package, package != playlist.package { bytes = section() }
        package = playlist.package
        entries.append(playlist)
        return bytes
    }

    public func finish(run: Report.Run, summary: Report.Summary) throws -> [UInt8] {
        var page = package == nil ? [] : section()
        page += Array(summarySection(run: run, summary: summary).utf8)
        page += Array("</main>\n</body>\n</html>\n".utf8)
        return page
    }

    // MARK: A title

    /// The section of the package gathered, which is then let go.
    private func section() -> [UInt8] {
        defer {
            entries.removeAll(keepingCapacity: true)
            package = nil
        }
        guard let package else { return [] }
        names = Self.shortNames(entries.map(\.path))
        titles += 1
        let index = titles
        var findings: [String: (severity: Severity, count: Int, first: [String], message: String)] = [:]
        var order: [String] = []
        for playlist in entries {
            for finding in playlist.diagnostics {
                let place = "\(name(playlist.path)):\(finding.line)"
                if var known = findings[finding.rule] {
                    known.count += 1
                    if known.first.count < 5, !known.first.contains(place) { known.first.append(place) }
                    findings[finding.rule] = known
                } else {
                    findings[finding.rule] = (finding.severity, 1, [place], finding.message.text)
                    order.append(finding.rule)
                }
            }
        }
        for (rule, found) in findings {
            var total = rules[rule] ?? (found.severity, 0, 0)
            total.count += found.count
            total.titles += 1
            total.severity = max(total.severity, found.severity)
            rules[rule] = total
        }
        let errors = findings.values.filter { $0.severity == .error }.reduce(0) { $0 + $1.count }
        let warnings = findings.values.filter { $0.severity == .warning }.reduce(0) { $0 + $1.count }
        if errors > 0 {
            failingCount += 1
            if failingTitles.count < Self.listedTitles { failingTitles.append((index, package)) }
        }
        let changes = entries.reduce(0) { $0 + $1.changes.count }
        var html = """
            <section class="title" id="title-\(index)" data-status="\(errors > 0 ? "fail" : "pass")">
            <h2><span class="badge \(errors > 0 ? "fail" : "pass")">\(errors > 0 ? "fails" : "passes")</span> \(Self.escape(package))</h2>
            <p class="counts">\(entries.count) playlist\(entries.count == 1 ? "" : "s") · <span class="errors">\(errors) error\(errors == 1 ? "" : "s")</span> · <span class="warnings">\(warnings) warning\(warnings == 1 ? "" : "s")</span>\(changes > 0 ? " · \(changes) change\(changes == 1 ? "" : "s")" : "")</p>

            """
        if let master = entries.first(where: { $0.declared != nil }), let declared = master.declared {
            html += variantsTable(declared, master: master)
        }
        html += migrationTable()
        html += keyPeriodsSection()
        html += keysSection()
        html += chartsSection()
        if !order.isEmpty {
            let sorted = order.sorted { (findings[$0]!.severity, findings[$1]!.count) > (findings[$1]!.severity, findings[$0]!.count) }
            html += """
                <h3>Findings by rule</h3>
                <table class="findings">
                <thead><tr><th>Severity</th><th>Rule</th><th>Count</th><th>First lines</th><th>First message</th></tr></thead>
                <tbody>

                """
            for rule in sorted {
                let found = findings[rule]!
                html += """
                    <tr class="\(found.severity.rawValue)"><td>\(Self.severityName(found.severity))</td><td><code>\(Self.escape(rule))</code></td><td class="number">\(found.count)</td><td>\(found.first.map(Self.escape).joined(separator: ", "))\(found.count > found.first.count ? ", …" : "")</td><td>\(Self.escape(found.message))</td></tr>

                    """
            }
            html += "</tbody>\n</table>\n"
        }
        html += "</section>\n"
        return Array(html.utf8)
    }

    /// Each variant and rendition as declared, beside what its playlist measures (with `--segments`); a
    /// measure that contradicts the declaration is marked.
    private func variantsTable(_ declared: Report.Declared, master: Report.Playlist) -> String {
        let directory = Self.directory(of: master.path)
        func measured(_ uri: String?) -> Report.Measured? {
            guard let uri, !uri.contains("://"), !uri.hasPrefix("/") else { return nil }
            let path = Self.normalized(directory + uri)
            return entries.first { Self.normalized($0.path) == path }?.measured
        }
        var html = """
            <h3>Variants</h3>
            <table class="variants">
            <thead><tr><th>Line</th><th>Playlist</th><th>BANDWIDTH</th><th>peak measured</th><th>AVERAGE-BANDWIDTH</th><th>average measured</th><th>CODECS</th><th>codecs measured</th><th>RESOLUTION</th><th>measured</th></tr></thead>
            <tbody>

            """
        for variant in declared.variants {
            let media = measured(variant.uri.text)
            let peakDiffers = media?.peakBitRate.map { peak in variant.bandwidth.map { peak > $0 } ?? true } ?? false
            let averageDiffers =
                media?.averageBitRate.map { average in variant.averageBandwidth.map { average > $0 } ?? false } ?? false
            let declaredCodecs = (variant.codecs ?? "").split(separator: ",").map { $0.trimmingPrefix(" ").lowercased() }
            let codecsDiffer =
                media.map { !$0.codecs.isEmpty && $0.codecs.contains { codec in !declaredCodecs.contains(codec.lowercased()) } } ?? false
            let resolutionDiffers = media?.resolution.map { $0 != variant.resolution } ?? false
            html += """
                <tr><td class="number">\(variant.line)</td><td>\(Self.escape(variant.uri))</td>\
                <td class="number">\(Self.number(variant.bandwidth))</td>\(Self.cell(media?.peakBitRate.map { Self.number($0) }, differs: peakDiffers))\
                <td class="number">\(Self.number(variant.averageBandwidth))</td>\(Self.cell(media?.averageBitRate.map { Self.number($0) }, differs: averageDiffers))\
                <td>\(Self.escape(variant.codecs ?? "—"))</td>\(Self.cell(media.map { $0.codecs.joined(separator: ",") }, differs: codecsDiffer, number: false))\
                <td>\(Self.escape(variant.resolution ?? "—"))</td>\(Self.cell(media?.resolution, differs: resolutionDiffers, number: false))</tr>

                """
        }
        html += "</tbody>\n</table>\n"
        guard !declared.renditions.isEmpty else { return html }
        html += """
            <table class="renditions">
            <thead><tr><th>Line</th><th>TYPE</th><th>GROUP-ID</th><th>NAME</th><th>Playlist</th><th>CHANNELS</th><th>channels measured</th></tr></thead>
            <tbody>

            """
        for rendition in declared.renditions {
            let media = measured(rendition.uri?.text)
            let differs = media?.channels.map { measured in rendition.channels.map { $0 != measured } ?? false } ?? false
            html += """
                <tr><td class="number">\(rendition.line)</td><td>\(Self.escape(rendition.type))</td><td>\(Self.escape(rendition.group))</td>\
                <td>\(Self.escape(rendition.name ?? "—"))</td><td>\(Self.escape(rendition.uri ?? "—"))</td>\
                <td class="number">\(rendition.channels.map(String.init) ?? "—")</td>\(Self.cell(media?.channels.map(String.init), differs: differs))</tr>

                """
        }
        return html + "</tbody>\n</table>\n"
    }

    /// For `apply`: each distinct key URI changed, old → new, per playlist's key tags (secrets were
    /// redacted when the report was made).
    private func migrationTable() -> String {
        var pairs: [(old: String, new: String, count: Int)] = []
        for playlist in entries {
            for change in playlist.changes where change.tag == "EXT-X-KEY" || change.tag == "EXT-X-SESSION-KEY" {
                let old = change.before.flatMap { Self.uri(ofKeyLine: $0.text) } ?? "(none: inserted)"
                let new = change.after.flatMap { Self.uri(ofKeyLine: $0.text) } ?? "(none: removed)"
                if let index = pairs.firstIndex(where: { $0.old == old && $0.new == new }) {
                    pairs[index].count += 1
                } else {
                    pairs.append((old, new, 1))
                }
            }
        }
        guard !pairs.isEmpty else { return "" }
        var html = """
            <h3>Key URIs changed</h3>
            <table class="migration">
            <thead><tr><th>Before</th><th></th><th>After</th><th>Lines</th></tr></thead>
            <tbody>

            """
        for pair in pairs.prefix(Self.listedRows) {
            html += """
                <tr><td><code>\(Self.escape(pair.old))</code></td><td>→</td><td><code>\(Self.escape(pair.new))</code></td><td class="number">\(pair.count)</td></tr>

                """
        }
        if pairs.count > Self.listedRows { html += "<tr><td colspan=\"4\">… and \(pairs.count - Self.listedRows) more</td></tr>\n" }
        return html + "</tbody>\n</table>\n"
    }

    /// The key periods of the title's media playlists as a timeline (a band per period, as long as it lasts,
    /// coloured by what encrypts it) and a table of where each starts and its keys: once for the playlists
    /// whose periods start at the same times with the same keys (a title's variants, usually).
    private func keyPeriodsSection() -> String {
        var groups: [(schedule: [Schedule], playlists: [Report.Playlist])] = []
        for playlist in entries where !(playlist.keyPeriods ?? []).isEmpty {
            let schedule = (playlist.keyPeriods ?? []).map {
                Schedule(start: $0.startMilliseconds, duration: $0.durationMilliseconds, keys: $0.keys)
            }
            if let index = groups.firstIndex(where: { $0.schedule == schedule }) {
                groups[index].playlists.append(playlist)
            } else {
                groups.append((schedule, [playlist]))
            }
        }
        guard !groups.isEmpty else { return "" }
        var html = "<h3>Key periods</h3>\n"
        for group in groups {
            let playlist = group.playlists[0]
            let periods = playlist.keyPeriods ?? []
            let names = group.playlists.map { name($0.path) }
            let shown =
                names.count <= 3 ? names.joined(separator: ", ") : names.prefix(2).joined(separator: ", ") + " and \(names.count - 2) more"
            let total = max(1, periods.reduce(0) { $0 + $1.durationMilliseconds })
            html += """
                <div class="keys" data-playlists="\(group.playlists.count)">
                <h4>\(Self.escape(shown)) <span class="muted">\(periods.count) period\(periods.count == 1 ? "" : "s")</span></h4>
                <div class="timeline" role="img" aria-label="key periods of \(Self.escape(shown))">
                """
            for period in periods.prefix(Self.drawnPeriods) {
                // As long as it lasts; a period of no time still a sliver.
                let share = max(0.2, Double(period.durationMilliseconds) * 100 / Double(total))
                html +=
                    "<span class=\"period \(Self.periodClass(period))\" style=\"flex-grow:\(Self.decimal(share))\" title=\"\(Self.escape(Self.periodLabel(period)))\"></span>"
            }
            html += "</div>\n"
            if periods.count > Self.drawnPeriods { html += "<p class=\"muted\">The first \(Self.drawnPeriods) periods are drawn.</p>\n" }
            html += """
                <table class="periods">
                <thead><tr><th>#</th><th>First segment, line in \(Self.escape(name(playlist.path)))</th><th>Starts</th><th>Lasts</th><th>Keys</th></tr></thead>
                <tbody>

                """
            for (index, period) in periods.prefix(Self.listedRows).enumerated() {
                let keys =
                    period.keys.isEmpty
                    ? "clear"
                    : period.keys.map { key in
                        "<span class=\"key \(Self.systemClass(key.format))\">\(Self.escape(Self.systemName(key.format))) \(Self.escape(key.method))"
                            + (key.keyID.map { " KID <code>\(Self.escape($0))</code>" } ?? "")
                            + (key.uri.map { " <code>\(Self.escape(Self.shortened($0.text)))</code>" } ?? "") + "</span>"
                    }.joined(separator: "<br>")
                html += """
                    <tr class="\(Self.periodClass(period))"><td class="number">\(index)</td><td class="number">\(period.line)</td><td class="number">\(Self.time(period.startMilliseconds))</td><td class="number">\(Self.time(period.durationMilliseconds))</td><td>\(keys)</td></tr>

                    """
            }
            if periods.count > Self.listedRows { html += "<tr><td colspan=\"5\">… and \(periods.count - Self.listedRows) more</td></tr>\n" }
            html += "</tbody>\n</table>\n</div>\n"
        }
        return html
    }

    /// The title's key map as people read it: a row per key (told by a KEYID of its periods, else by its
    /// FairPlay URI), with its FairPlay URIs and when each media playlist uses it. Whether the map holds is
    /// the findings' to say (`FPS-uri-two-keys`, `FPS-key-two-uris`); the page lays it out, aligned by key.
    private func keysSection() -> String {
        var keys: [(name: String, keyID: String?, uris: [String], uses: [String])] = []
        for playlist in entries {
            for period in playlist.keyPeriods ?? [] {
                guard let fairPlay = period.keys.first(where: { Self.systemClass($0.format) == "fairplay" && $0.method != "NONE" }) else {
                    continue
                }
                let keyID = period.keys.lazy.compactMap(\.keyID).first
                let name = keyID.map { "kid:" + $0 } ?? "uri:" + (fairPlay.uri?.text ?? "")
                let use =
                    "\(self.name(playlist.path)) \(Self.time(period.startMilliseconds))–"
                    + Self.time(period.startMilliseconds + period.durationMilliseconds)
                if let index = keys.firstIndex(where: { $0.name == name }) {
                    if let uri = fairPlay.uri?.text, !keys[index].uris.contains(uri) { keys[index].uris.append(uri) }
                    keys[index].uses.append(use)
                } else {
                    keys.append((name, keyID, fairPlay.uri.map { [$0.text] } ?? [], [use]))
                }
            }
        }
        guard !keys.isEmpty else { return "" }
        var html = """
            <h3>Keys</h3>
            <table class="title-keys">
            <thead><tr><th>Key (KID)</th><th>FairPlay URI</th><th>Used by</th></tr></thead>
            <tbody>

            """
        for key in keys.prefix(Self.listedRows) {
            let uris = key.uris.map { "<code>\(Self.escape(Self.shortened($0)))</code>" }.joined(separator: "<br>")
            let uses =
                key.uses.prefix(Self.listedRows).map(Self.escape).joined(separator: "<br>")
                + (key.uses.count > Self.listedRows ? "<br>… and \(key.uses.count - Self.listedRows) more" : "")
            html +=
                "<tr data-uris=\"\(key.uris.count)\"><td>\(key.keyID.map { "<code>\(Self.escape($0))</code>" } ?? "—")</td><td>\(uris)</td><td>\(uses)</td></tr>\n"
        }
        if keys.count > Self.listedRows { html += "<tr><td colspan=\"3\">… and \(keys.count - Self.listedRows) more</td></tr>\n" }
        return html + "</tbody>\n</table>\n"
    }

    /// When a key period starts and its keys: what playlists share to share a timeline.
    private struct Schedule: Equatable {
        var start: Int
        var duration: Int
        var keys: [Report.KeyPeriod.Key]
    }

    /// A `data:` URI (a whole pssh box) as its media type and an ellipsis.
    static func shortened(_ uri: String) -> String {
        guard uri.hasPrefix("data:"), let comma = uri.firstIndex(of: ",") else { return uri }
        return String(uri[...comma]) + "…"
    }

    /// With `--segments`: per media playlist, each segment's bit rate over time against the BANDWIDTH and
    /// AVERAGE-BANDWIDTH of the variant that names it, and its EXTINF against its measured duration.
    private func chartsSection() -> String {
        let measured = entries.filter { !($0.measured?.segments ?? []).isEmpty }
        guard !measured.isEmpty else { return "" }
        var declaredFor: [String: Report.Declared.Variant] = [:]
        for master in entries {
            guard let declared = master.declared else { continue }
            let directory = Self.directory(of: master.path)
            for variant in declared.variants where !variant.uri.text.contains("://") {
                declaredFor[Self.normalized(directory + variant.uri.text)] = variant
            }
        }
        var html = "<h3>Segments</h3>\n"
        for playlist in measured {
            let segments = playlist.measured!.segments
            let variant = declaredFor[Self.normalized(playlist.path)]
            html += "<div class=\"charts\"><h4>\(Self.escape(name(playlist.path)))</h4>\n"
            html += Self.bitRateChart(segments, bandwidth: variant?.bandwidth, average: variant?.averageBandwidth)
            html += Self.durationChart(segments)
            html += "</div>\n"
        }
        return html
    }

    static let chartWidth = 640.0
    static let chartHeight = 160.0

    /// Bars of each segment's bit rate, as wide as it lasts; the declared rates as lines.
    static func bitRateChart(_ segments: [Report.Measured.Segment], bandwidth: Int?, average: Int?) -> String {
        let total = max(1, segments.reduce(0) { $0 + $1.durationMilliseconds })
        let top = Double(max(1, ([bandwidth ?? 0, average ?? 0] + segments.map(\.bitRate)).max()!)) * 1.1
        func y(_ rate: Int) -> Double { chartHeight - Double(rate) / top * chartHeight }
        var svg = """
            <svg class="chart bitrate" viewBox="0 0 \(decimal(chartWidth)) \(decimal(chartHeight + 16))" width="\(decimal(chartWidth))" role="img" aria-label="segment bit rates">
            <title>Segment bit rate over time (peak of the axis \(number(Int(top))) bit/s)</title>

            """
        var elapsed = 0
        for segment in segments {
            let x = Double(elapsed) / Double(total) * chartWidth
            let width = max(0.5, Double(segment.durationMilliseconds) / Double(total) * chartWidth)
            svg +=
                "<rect class=\"segment\" x=\"\(decimal(x))\" y=\"\(decimal(y(segment.bitRate)))\" width=\"\(decimal(width))\" height=\"\(decimal(chartHeight - y(segment.bitRate)))\" data-line=\"\(segment.line)\" data-bitrate=\"\(segment.bitRate)\"><title>line \(segment.line): \(number(segment.bitRate)) bit/s, \(time(segment.durationMilliseconds))</title></rect>\n"
            elapsed += segment.durationMilliseconds
        }
        for (name, rate) in [("bandwidth", bandwidth), ("average", average)] {
            guard let rate else { continue }
            svg +=
                "<line class=\"declared \(name)\" x1=\"0\" x2=\"\(decimal(chartWidth))\" y1=\"\(decimal(y(rate)))\" y2=\"\(decimal(y(rate)))\" data-rate=\"\(rate)\"><title>\(name == "bandwidth" ? "BANDWIDTH" : "AVERAGE-BANDWIDTH") \(number(rate))</title></line>\n"
        }
        svg +=
            "<text x=\"0\" y=\"\(decimal(chartHeight + 13))\">0</text><text x=\"\(decimal(chartWidth))\" y=\"\(decimal(chartHeight + 13))\" text-anchor=\"end\">\(time(total))</text>\n"
        return svg + "</svg>\n"
    }

    /// Per segment, its EXTINF (a mark) against its measured duration (a bar).
    static func durationChart(_ segments: [Report.Measured.Segment]) -> String {
        let top = Double(max(1, segments.map { max($0.durationMilliseconds, $0.extinfMilliseconds ?? 0) }.max()!)) * 1.1
        let step = chartWidth / Double(max(1, segments.count))
        func y(_ milliseconds: Int) -> Double { chartHeight - Double(milliseconds) / top * chartHeight }
        var svg = """
            <svg class="chart durations" viewBox="0 0 \(decimal(chartWidth)) \(decimal(chartHeight + 16))" width="\(decimal(chartWidth))" role="img" aria-label="EXTINF against measured durations">
            <title>EXTINF (marks) against measured duration (bars), per segment</title>

            """
        for (index, segment) in segments.enumerated() {
            let x = Double(index) * step
            svg +=
                "<rect class=\"measured\" x=\"\(decimal(x + step * 0.15))\" y=\"\(decimal(y(segment.durationMilliseconds)))\" width=\"\(decimal(step * 0.7))\" height=\"\(decimal(chartHeight - y(segment.durationMilliseconds)))\" data-line=\"\(segment.line)\"><title>line \(segment.line): measured \(time(segment.durationMilliseconds))</title></rect>\n"
            if let extinf = segment.extinfMilliseconds {
                svg +=
                    "<line class=\"extinf\" x1=\"\(decimal(x))\" x2=\"\(decimal(x + step))\" y1=\"\(decimal(y(extinf)))\" y2=\"\(decimal(y(extinf)))\" data-line=\"\(segment.line)\"><title>line \(segment.line): EXTINF \(time(extinf))</title></line>\n"
            }
        }
        svg += "<text x=\"0\" y=\"\(decimal(chartHeight + 13))\">segments: \(segments.count)</text>\n"
        return svg + "</svg>\n"
    }

    // MARK: The summary

    private func summarySection(run: Report.Run, summary: Report.Summary) -> String {
        var html = """
            <section class="summary" id="summary">
            <h1>skdpack \(Self.escape(run.command)) report</h1>
            <p class="run">\(Self.escape(run.startedAt)) · \(Self.time(run.durationMilliseconds)) · skdpack \(Self.escape(tool.version))\(run.template.map { " · template <code>\(Self.escape($0))</code>" } ?? "")\(run.partial == true ? " · <strong>stopped before the end</strong>" : "")</p>
            <dl class="totals">
            <div><dt>Titles</dt><dd id="total-titles">\(titles)</dd></div>
            <div><dt>Titles failing</dt><dd id="total-failing" class="\(failingCount > 0 ? "fail" : "pass")">\(failingCount)</dd></div>
            <div><dt>Playlists</dt><dd id="total-playlists">\(summary.playlistsRead)</dd></div>
            <div><dt>Errors</dt><dd id="total-errors">\(summary.errors)</dd></div>
            <div><dt>Warnings</dt><dd id="total-warnings">\(summary.warnings)</dd></div>
            <div><dt>Notes</dt><dd id="total-notes">\(summary.infos)</dd></div>

            """
        if run.command == "apply" {
            html += """
                <div><dt>Changed</dt><dd id="total-changed">\(summary.changed)</dd></div>
                <div><dt>Keys rewritten</dt><dd id="total-rewritten">\(summary.keysRewritten)</dd></div>
                <div><dt>Keys inserted</dt><dd id="total-inserted">\(summary.keysInserted)</dd></div>

                """
        }
        html += "</dl>\n"
        for (heading, severity, id) in [("Must fix", Severity.error, "must-fix"), ("Should fix", Severity.warning, "should-fix")] {
            let found = rules.filter { $0.value.severity == severity }.sorted { ($0.value.count, $1.key) > ($1.value.count, $0.key) }
            guard !found.isEmpty else { continue }
            html += """
                <h2>\(heading)</h2>
                <table class="rules" id="\(id)">
                <thead><tr><th>Rule</th><th>Findings</th><th>Titles</th></tr></thead>
                <tbody>

                """
            for (rule, total) in found {
                html +=
                    "<tr><td><code>\(Self.escape(rule))</code></td><td class=\"number\">\(total.count)</td><td class=\"number\">\(total.titles)</td></tr>\n"
            }
            html += "</tbody>\n</table>\n"
        }
        if !failingTitles.isEmpty {
            html += "<h2>Titles that fail</h2>\n<ul class=\"failing\">\n"
            for title in failingTitles { html += "<li><a href=\"#title-\(title.index)\">\(Self.escape(title.name))</a></li>\n" }
            if failingCount > failingTitles.count { html += "<li>… and \(failingCount - failingTitles.count) more</li>\n" }
            html += "</ul>\n"
        }
        return html + "</section>\n"
    }

    // MARK: Text

    /// A report's text, as text of the page.
    static func escape(_ text: Redacted) -> String { escape(text.text) }

    /// `text` as HTML text or a quoted attribute value: `&`, `<`, `>`, `"` and `'` as references; other
    /// C0 controls (which a page cannot show) as U+FFFD.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\n", "\t": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// The URI of a key line, read by the playlist reader's own tag parser.
    static func uri(ofKeyLine line: String) -> String? {
        Array(line.utf8).withUnsafeBytes { TagParser.parse($0).tag.quotedString("URI") }
    }

    static func severityName(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .info: "note"
        }
    }

    static func systemName(_ format: String) -> String {
        switch format.lowercased() {
        case "com.apple.streamingkeydelivery": "FairPlay"
        case "urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed": "Widevine"
        case "com.microsoft.playready", "urn:uuid:9a04f079-9840-4286-ab92-e65be0885f95": "PlayReady"
        case "identity": "identity"
        default: format
        }
    }

    static func systemClass(_ format: String) -> String {
        format.lowercased() == "com.apple.streamingkeydelivery" ? "fairplay" : "other"
    }

    /// `clear` (no key, or only METHOD=NONE), `fairplay` (a FairPlay key), else `other`.
    static func periodClass(_ period: Report.KeyPeriod) -> String {
        let encrypting = period.keys.filter { $0.method != "NONE" }
        if encrypting.isEmpty { return "clear" }
        return encrypting.contains { systemClass($0.format) == "fairplay" } ? "fairplay" : "other"
    }

    static func periodLabel(_ period: Report.KeyPeriod) -> String {
        let keys =
            period.keys.isEmpty
            ? "clear" : period.keys.map { "\(systemName($0.format)) \($0.keyID ?? $0.uri?.text ?? "")" }.joined(separator: "; ")
        return "line \(period.line), from \(time(period.startMilliseconds)): \(keys)"
    }

    static func cell(_ value: String?, differs: Bool, number: Bool = true) -> String {
        let classes = [number ? "number" : nil, differs ? "differs" : nil].compactMap { $0 }.joined(separator: " ")
        return "<td\(classes.isEmpty ? "" : " class=\"\(classes)\"")>\(escape(value ?? "—"))\(differs ? " ⚠" : "")</td>"
    }

    /// Thousands separated by thin spaces; `—` for none.
    static func number(_ value: Int?) -> String {
        guard let value else { return "—" }
        let digits = String(value.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out += "\u{2009}" }
            out.append(digit)
        }
        return (value < 0 ? "-" : "") + out
    }

    /// `h:mm:ss.mmm`, or `m:ss.mmm` under an hour.
    static func time(_ milliseconds: Int) -> String {
        let total = max(0, milliseconds)
        let (hours, minutes, seconds, rest) = (total / 3_600_000, total / 60_000 % 60, total / 1000 % 60, total % 1000)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let fraction = rest < 10 ? "00\(rest)" : rest < 100 ? "0\(rest)" : "\(rest)"
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(seconds)).\(fraction)" : "\(minutes):\(two(seconds)).\(fraction)"
    }

    /// A coordinate to two decimals.
    static func decimal(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let hundredths = Int((value * 100).rounded())
        let fraction = abs(hundredths % 100)
        return "\(hundredths < 0 && hundredths > -100 ? "-" : "")\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// How the section names the playlist at `path`.
    private func name(_ path: String) -> String { names[path] ?? Self.fileName(path) }

    /// A name for each of a title's playlists that tells it from the others: its file name, or, where two
    /// share one (`360p/index.m3u8`, `720p/index.m3u8`), its path below the directory they all share.
    static func shortNames(_ paths: [String]) -> [String: String] {
        var counts: [String: Int] = [:]
        for path in paths { counts[fileName(path), default: 0] += 1 }
        guard counts.values.contains(where: { $0 > 1 }) else { return [:] }
        var common = paths.first.map { directory(of: $0) } ?? ""
        for path in paths.dropFirst() {
            while !common.isEmpty, !path.hasPrefix(common) {
                common = directory(of: String(common.dropLast()))
            }
        }
        return Dictionary(
            paths.map { path in (path, counts[fileName(path)]! > 1 ? String(path.dropFirst(common.count)) : fileName(path)) },
            uniquingKeysWith: { first, _ in first })
    }

    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[...slash])
    }

    /// A path without `.` and `a/..` steps.
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: false) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != "..", !last.isEmpty {
                parts.removeLast()
            } else {
                parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }

    static let style = """
        :root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:15px;color:#1d1d1f;background:#f5f5f7}
        body{margin:0}
        .report{display:flex;flex-direction:column;gap:16px;max-width:1200px;margin:0 auto;padding:16px}
        .summary{order:-1}
        section{background:#fff;border-radius:10px;padding:12px 20px;box-shadow:0 1px 3px rgba(0,0,0,.12)}
        h1{font-size:1.6em;margin:.2em 0}h2{font-size:1.2em;margin:.4em 0;overflow-wrap:anywhere}h3{font-size:1em;margin:1em 0 .4em}h4{font-size:.95em;margin:.8em 0 .3em;overflow-wrap:anywhere}
        .run,.counts,.muted{color:#6e6e73}
        .totals{display:flex;flex-wrap:wrap;gap:10px;margin:8px 0}
        .totals div{background:#f5f5f7;border-radius:8px;padding:8px 14px;min-width:90px}
        dt{font-size:.8em;color:#6e6e73}dd{margin:0;font-size:1.5em;font-weight:600}
        .fail{color:#c5221f}.pass{color:#1e7e34}
        .badge{display:inline-block;border-radius:6px;padding:1px 8px;font-size:.75em;color:#fff;vertical-align:middle}
        .badge.fail{background:#c5221f}.badge.pass{background:#1e7e34}
        table{border-collapse:collapse;width:100%;margin:4px 0 8px;font-size:.9em}
        th,td{border-bottom:1px solid #e5e5ea;padding:4px 8px;text-align:left;vertical-align:top;overflow-wrap:anywhere}
        th{background:#fafafa;font-weight:600;overflow-wrap:normal;word-break:keep-all}
        .findings td:first-child,.findings td:nth-child(2){white-space:nowrap}
        td.number{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
        td.differs{background:#fdecea;color:#c5221f;font-weight:600}
        tr.error td:first-child{color:#c5221f;font-weight:600}tr.warning td:first-child{color:#b26a00;font-weight:600}
        code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em;overflow-wrap:anywhere}
        .timeline{display:flex;height:18px;border-radius:4px;overflow:hidden;background:#e5e5ea;margin:4px 0}
        .period{min-width:1px;border-right:1px solid #fff}
        .period.clear,tr.clear td:first-child{background:#c7c7cc}.period.fairplay{background:#34a853}.period.other{background:#4285f4}
        .key.fairplay{color:#1e7e34}
        .chart{display:block;max-width:100%;height:auto;background:#fafafa;margin:4px 0;font-size:10px}
        .chart rect.segment{fill:#4285f4}.chart rect.measured{fill:#a0c3ff}
        .chart line.declared{stroke:#c5221f;stroke-width:1.5}.chart line.average{stroke-dasharray:6 3}
        .chart line.extinf{stroke:#1d1d1f;stroke-width:2}
        """
}
