import MP4

/// `ContentKeyUsageRule`: which tracks (content key contexts) a key is for (CPIX 2.4, 5.4).
public struct UsageRule: Sendable, Equatable {
    public var kid: KeyID
    /// A business label; CPIX says it does not take part in matching, so it does not here.
    public var intendedTrackType: String?
    public var filters: [Filter] = []
    public var line: Int
    /// Why the rule cannot be used (an unknown filter), which makes every mapping of the document unusable.
    public var unusableReason: String?

    /// One filter of a rule.
    public enum Filter: Sendable, Equatable {
        case keyPeriod(periodID: String)
        case label(String)
        case video(VideoFilter)
        case audio(AudioFilter)
        case bitrate(min: UInt64?, max: UInt64?)

        /// Filters of one kind are alternatives (OR); filters of different kinds all apply (AND).
        var kind: Int {
            switch self {
            case .keyPeriod: 0
            case .label: 1
            case .video: 2
            case .audio: 3
            case .bitrate: 4
            }
        }
    }

    /// `VideoFilter`: pixels in [min, max], frame rate in (min, max], HDR and WCG when said.
    public struct VideoFilter: Sendable, Equatable {
        public var minPixels: UInt64?
        public var maxPixels: UInt64?
        public var minFps: Double?
        public var maxFps: Double?
        public var hdr: Bool?
        public var wcg: Bool?
    }

    /// `AudioFilter`: channels in [min, max].
    public struct AudioFilter: Sendable, Equatable {
        public var minChannels: UInt64?
        public var maxChannels: UInt64?
    }

    /// Whether the rule selects `track`.
    public func matches(_ track: TrackContext) -> Bool {
        let kinds = Dictionary(grouping: filters, by: \.kind)
        return kinds.values.allSatisfy { alternatives in alternatives.contains { $0.matches(track) } }
    }

    /// What the rule asks, in a few words, for messages.
    public var summary: String {
        guard !filters.isEmpty else { return "every track" }
        return filters.map(\.summary).joined(separator: " and ")
    }
}

extension UsageRule.Filter {
    func matches(_ track: TrackContext) -> Bool {
        switch self {
        case .keyPeriod(let id):
            return track.periodID == id
        case .label(let label):
            return track.labels.contains(label)
        case .video(let filter):
            // An empty VideoFilter still says "video".
            guard track.type == .video else { return false }
            if let pixels = track.pixels {
                if let min = filter.minPixels, UInt64(pixels) < min { return false }
                if let max = filter.maxPixels, UInt64(pixels) > max { return false }
            } else if filter.minPixels != nil || filter.maxPixels != nil {
                return false
            }
            if let fps = track.frameRate {
                if let min = filter.minFps, fps <= min { return false }
                if let max = filter.maxFps, fps > max { return false }
            } else if filter.minFps != nil || filter.maxFps != nil {
                return false
            }
            if let hdr = filter.hdr, hdr != track.isHDR { return false }
            return true
        case .audio(let filter):
            guard track.type == .audio else { return false }
            guard let channels = track.channels else { return filter.minChannels == nil && filter.maxChannels == nil }
            if let min = filter.minChannels, UInt64(channels) < min { return false }
            if let max = filter.maxChannels, UInt64(channels) > max { return false }
            return true
        case .bitrate(let min, let max):
            guard let bitrate = track.bitrate else { return min == nil && max == nil }
            if let min, UInt64(bitrate) < min { return false }
            if let max, UInt64(bitrate) > max { return false }
            return true
        }
    }

    var summary: String {
        switch self {
        case .keyPeriod(let id): "period \(id)"
        case .label(let label): "label \(label)"
        case .video(let filter):
            "video" + Self.range("pixels", filter.minPixels, filter.maxPixels) + Self.range("fps", filter.minFps, filter.maxFps)
                + (filter.hdr.map { $0 ? " HDR" : " SDR" } ?? "")
        case .audio(let filter): "audio" + Self.range("channels", filter.minChannels, filter.maxChannels)
        case .bitrate(let min, let max): "bitrate" + Self.range("bit/s", min, max)
        }
    }

    private static func range<Number>(_ unit: String, _ min: Number?, _ max: Number?) -> String {
        switch (min, max) {
        case (nil, nil): ""
        case (let min?, nil): " \(unit) ≥ \(min)"
        case (nil, let max?): " \(unit) ≤ \(max)"
        case (let min?, let max?): " \(unit) \(min)–\(max)"
        }
    }
}

/// A content key context as the packager knows it from a playlist: the track's type and properties, and
/// the key period.
public struct TrackContext: Sendable, Equatable, CustomStringConvertible {
    public enum TrackType: String, Sendable {
        case video, audio, other
    }

    public var type: TrackType
    /// Width × height.
    public var pixels: Int?
    public var resolution: String?
    public var frameRate: Double?
    public var isHDR = false
    public var channels: Int?
    public var bitrate: Int?
    public var labels: [String] = []
    /// The `ContentKeyPeriod@id` of the period, when the document has periods.
    public var periodID: String?

    public init(type: TrackType) { self.type = type }

    public var description: String {
        var parts = [type.rawValue]
        if let resolution { parts.append(resolution) }
        if let channels { parts.append("\(channels) channels") }
        if let bitrate { parts.append("\(bitrate) bit/s") }
        if let periodID { parts.append("period \(periodID)") }
        return parts.joined(separator: ", ")
    }
}
