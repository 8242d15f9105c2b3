import HLS
import SKDFiles
import SKDKeys

/// With `--segments`: each variant of a master held to what its media measure (rfc8216bis 4.4.6.2).
/// BANDWIDTH and AVERAGE-BANDWIDTH MUST be the largest sum of the peak (average) segment bit rates of any
/// playable combination of renditions: the variant's playlist and the heaviest of its audio group's; below
/// the measure by more than 10% is an error, above it by more than half a warning (players pick too low a
/// variant). CODECS lists every sample format present, with the profile the media has and a level at least
/// its own; RESOLUTION and CHANNELS say what the media is.
enum MeasuredVariantRule {
    static let bandwidthKind = DiagnosticKind(
        id: "PKG-bandwidth-measured", severity: .error,
        summary:
            "With the segments read: a variant's BANDWIDTH or AVERAGE-BANDWIDTH is below the measured peak (average) segment bit rate.",
        specSection: "rfc8216bis-22 4.4.6.2 (BANDWIDTH, AVERAGE-BANDWIDTH) and 4.1 (peak and average segment bit rate)")
    static let overstatedKind = DiagnosticKind(
        id: "PKG-bandwidth-overstated", severity: .warning,
        summary: "With the segments read: a variant's BANDWIDTH or AVERAGE-BANDWIDTH is more than 1.5 times what its media measure.",
        specSection: "rfc8216bis-22 4.4.6.2 (an inaccurate value can prevent clients from playing the variant)")
    static let codecsKind = DiagnosticKind(
        id: "PKG-codecs-measured", severity: .error,
        summary: "With the segments read: a variant's CODECS misses a format its media have, or names another profile or a lower level.",
        specSection: "rfc8216bis-22 4.4.6.2 (CODECS: every media format present); RFC 6381 3.3")
    static let resolutionKind = DiagnosticKind(
        id: "PKG-resolution-measured", severity: .warning,
        summary: "With the segments read: a variant's RESOLUTION differs from its video's picture size.",
        specSection: "rfc8216bis-22 4.4.6.2 (RESOLUTION)")
    static let channelsKind = DiagnosticKind(
        id: "PKG-channels-measured", severity: .warning,
        summary: "With the segments read: an audio rendition's CHANNELS differs from its media's channel count.",
        specSection: "rfc8216bis-22 4.4.6.1 (CHANNELS)")

    static let frameRateKind = DiagnosticKind(
        id: "PKG-frame-rate-measured", severity: .warning,
        summary:
            "With the segments read: a variant's FRAME-RATE differs from its video's by more than 1%, or is missing over 30 frames a second.",
        specSection: "rfc8216bis-22 4.4.6.2 (FRAME-RATE: SHOULD be included if any video exceeds 30 frames per second)")

    static let kinds = [bandwidthKind, overstatedKind, codecsKind, resolutionKind, channelsKind, frameRateKind]

    static func check(_ package: PackageContents) -> [Diagnostic] {
        let master = package.master
        let directory = AtomicFile.directory(of: master.path)
        let measured = Dictionary(
            package.media.compactMap { playlist in playlist.measured.map { (PathComponents.normalized(playlist.path), $0) } },
            uniquingKeysWith: { first, _ in first })
        func media(_ uri: String) -> MeasuredPlaylist? {
            guard let local = MasterReferences.localPath(uri), !local.hasPrefix("/") else { return nil }
            return measured[PathComponents.normalized(directory + "/" + local)]
        }
        var findings: [Diagnostic] = []
        func report(_ kind: DiagnosticKind, _ message: String, line: Int) {
            findings.append(kind(message, at: SourceLocation(path: master.path, line: line, column: 1, offset: 0)))
        }
        for variant in master.variants.variants {
            guard let video = media(variant.uri), video.segmentsRead > 0 else { continue }
            let audio = master.variants.renditions.filter { $0.type == "AUDIO" && $0.group == variant.audioGroup }
                .compactMap { $0.uri.flatMap(media) }
            // With a segment not measured, the measures are lower bounds: only BANDWIDTH below the peak is certain.
            let complete = video.isComplete && audio.allSatisfy(\.isComplete)
            let peak = (video.peakBitRate ?? 0) + (audio.compactMap(\.peakBitRate).max() ?? 0)
            let average = (video.averageBitRate ?? 0) + (audio.compactMap(\.averageBitRate).max() ?? 0)
            for (name, declared, measure) in [
                ("BANDWIDTH", variant.bandwidth, peak), ("AVERAGE-BANDWIDTH", variant.averageBandwidth, average),
            ] {
                guard let declared, measure > 0, complete || name == "BANDWIDTH" else { continue }
                let what = name == "BANDWIDTH" ? "peak" : "average"
                if Double(measure) > Double(declared) * 1.1 {
                    report(
                        bandwidthKind,
                        "\(name)=\(declared), and the \(what) segment bit rate of this variant's media is \(measure) bit/s: "
                            + "write \(name)=\(measure)", line: variant.line)
                } else if complete, Double(declared) > Double(measure) * 1.5 {
                    report(
                        overstatedKind,
                        "\(name)=\(declared), and the \(what) segment bit rate of this variant's media is \(measure) bit/s: "
                            + "players on slower networks will skip a variant they could play; write \(name)=\(measure)", line: variant.line
                    )
                }
            }
            let found = video.codecs + audio.flatMap(\.codecs)
            if let declared = variant.codecs {
                for codec in found where !declared.contains(where: { Self.covers($0, codec) }) {
                    report(
                        codecsKind,
                        "CODECS=\"\(declared.joined(separator: ","))\", and the media have \(codec): "
                            + "list \(codec) (with its profile and a level at least the media's)", line: variant.line)
                }
            }
            if let resolution = variant.resolution, let width = video.width, let height = video.height,
                resolution.width != UInt64(width) || resolution.height != UInt64(height)
            {
                report(
                    resolutionKind,
                    "RESOLUTION=\(resolution.width)x\(resolution.height), and the video's pictures are \(width)x\(height): "
                        + "write RESOLUTION=\(width)x\(height)", line: variant.line)
            }
            if let measured = video.frameRate {
                let rate = (measured * 1000).rounded() / 1000
                if let declared = variant.frameRate, abs(declared - measured) > measured * 0.01 {
                    report(
                        frameRateKind, "FRAME-RATE=\(declared), and the video has \(rate) frames a second: write FRAME-RATE=\(rate)",
                        line: variant.line)
                } else if variant.frameRate == nil, measured > 30.01 {
                    report(
                        frameRateKind,
                        "the video has \(rate) frames a second and the variant has no FRAME-RATE: write FRAME-RATE=\(rate), which "
                            + "players use to skip variants they cannot decode smoothly", line: variant.line)
                }
            }
        }
        for rendition in master.variants.renditions where rendition.type == "AUDIO" {
            guard let declared = rendition.channels, let media = rendition.uri.flatMap(media), let channels = media.channels,
                channels != declared
            else { continue }
            report(
                channelsKind,
                "CHANNELS=\"\(declared)\", and the rendition's audio has \(channels) channel\(channels == 1 ? "" : "s"): "
                    + "write CHANNELS=\"\(channels)\"", line: rendition.line)
        }
        return findings
    }

    /// Whether the declared codec `declared` covers the measured `codec`: the same format and profile, and
    /// for AVC a level at least the media's (`avc1.64001f` covers `avc1.64001e`); other formats by name.
    static func covers(_ declared: String, _ codec: String) -> Bool {
        let declared = declared.lowercased()
        let codec = codec.lowercased()
        guard declared != codec else { return true }
        let (format, measured) = (codec.prefix { $0 != "." }, codec.drop { $0 != "." }.dropFirst())
        let (declaredFormat, declaredRest) = (declared.prefix { $0 != "." }, declared.drop { $0 != "." }.dropFirst())
        let avc: Set<Substring> = ["avc1", "avc3"]
        if avc.contains(format), avc.contains(declaredFormat), measured.count == 6, declaredRest.count == 6,
            let level = Int(measured.suffix(2), radix: 16), let declaredLevel = Int(declaredRest.suffix(2), radix: 16)
        {
            return measured.prefix(2) == declaredRest.prefix(2) && declaredLevel >= level
        }
        // An object type without its audio object type (TS AAC whose ADTS was not read) is covered by any of it.
        return declaredFormat == format && (measured.isEmpty || declaredRest == measured || declaredRest.hasPrefix(measured + "."))
    }
}
