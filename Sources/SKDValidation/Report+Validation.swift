import HLS
import SKDKeys
import SKDReportModel
import SKDTemplate

extension Report.Playlist {
    /// The entry for a validated playlist of `package`, its text as `redaction` (the run's and the
    /// playlist's secrets) leaves it.
    public init(_ validation: PlaylistValidation, package: String, redaction: Redaction) {
        let failed = validation.diagnostics.contains { $0.severity == .error }
        self.init(
            path: validation.path, package: package, kind: validation.kind, status: failed ? .failed : .passed,
            changes: [], diagnostics: validation.diagnostics.map { Report.Finding($0, redaction) },
            measured: validation.measured.flatMap { $0.segmentsRead + $0.segmentsNotMeasured > 0 ? Report.Measured($0, redaction) : nil },
            declared: validation.kind == .master ? Report.Declared(validation.variants, redaction) : nil,
            keyPeriods: validation.kind == .media ? validation.keyPeriods : nil,
            keyURIs: Report.KeyURI.list(
                validation.keyUses.map { use in
                    // A URI the redaction changes holds a secret.
                    (use.place.line, use.digest, use.evidence?.keyIDHex, redaction.hidesSomething(in: use.uri))
                }))
    }
}

extension Report.Declared {
    /// What a master declares (``VariantFacts``), its text as `redaction` leaves it.
    init(_ facts: VariantFacts, _ redaction: Redaction) {
        self.init(
            variants: facts.variants.map { variant in
                Variant(
                    line: variant.line, uri: redaction.redacted(variant.uri), bandwidth: variant.bandwidth.map { Int(clamping: $0) },
                    averageBandwidth: variant.averageBandwidth.map { Int(clamping: $0) }, codecs: variant.codecsWritten,
                    resolution: variant.resolution.map { "\($0.width)x\($0.height)" }, frameRate: variant.frameRateWritten,
                    audio: variant.audioGroup)
            },
            renditions: facts.renditions.map {
                Rendition(
                    line: $0.line, type: $0.type, group: $0.group, name: redaction.redacted($0.name), uri: redaction.redacted($0.uri),
                    channels: $0.channels)
            })
    }
}

extension Report.Measured {
    /// What a media playlist's segments measured (``MeasuredPlaylist``), its text as `redaction` leaves it.
    init(_ measured: MeasuredPlaylist, _ redaction: Redaction) {
        self.init(
            segmentsRead: measured.segmentsRead, segmentsNotMeasured: measured.segmentsNotMeasured, bytesRead: measured.bytesRead,
            durationMilliseconds: Self.milliseconds(measured.duration), peakBitRate: measured.peakBitRate,
            averageBitRate: measured.averageBitRate, codecs: measured.codecs,
            resolution: measured.width.flatMap { width in measured.height.map { "\(width)x\($0)" } }, channels: measured.channels,
            segments: measured.segments.map {
                Segment(
                    line: $0.line, uri: redaction.redacted($0.uri), durationMilliseconds: Self.milliseconds($0.duration),
                    bytes: $0.bytes,
                    bitRate: $0.bitRate, extinfMilliseconds: $0.extinf.map(Self.milliseconds))
            })
    }
}
