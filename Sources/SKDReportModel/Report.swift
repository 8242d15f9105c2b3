import HLS
import SKDBytes
import SKDTemplate

/// What one run of `apply` or `validate` did, as data: the one content model behind every report format
/// (JSON, XML, JUnit, SARIF; see `SKDReports`).
///
/// Everything but ``run`` follows from the input alone, so two runs over the same input give reports that
/// are equal outside `run`: a report can be diffed, cached and kept as the record of a packaging run.
public struct Report: Hashable, Sendable, Codable {
    /// The version of this model; it changes when a field changes meaning or is removed.
    /// 1.1 added, to each change, the key id written and where it came from (`kid`, `kidSource`, `kidFile`);
    /// 1.2 the playlists a stopped run did not get to (`run.notDone`); 1.3 what `validate --segments`
    /// measures of each media playlist (`measured`).
    public static let currentSchemaVersion = "1.5"
    /// The versions this skdpack reads back (`report merge`): each adds to the one before.
    public static let readableSchemaVersions = ["1", "1.1", "1.2", "1.3", "1.4", "1.5"]

    public var schemaVersion = Report.currentSchemaVersion
    public var tool: Tool
    public var run: Run
    /// Totals over ``playlists``, computed when the report is made.
    public private(set) var summary: Summary
    /// One entry per playlist, package by package (in the path order of their masters), each package's
    /// playlists in path order: ``Playlist/inReportOrder``.
    public private(set) var playlists: [Playlist]

    public init(tool: Tool, run: Run, playlists: [Playlist]) {
        self.tool = tool
        self.run = run
        self.playlists = playlists.sorted(by: Playlist.inReportOrder)
        self.summary = Summary(self.playlists)
    }

    public struct Tool: Hashable, Sendable, Codable {
        public var name: String
        public var version: String

        public init(name: String = "skdpack", version: String) {
            self.name = name
            self.version = version
        }
    }

    /// The volatile part: how the tool was run, and when.
    public struct Run: Hashable, Sendable, Codable {
        /// `apply` or `validate`.
        public var command: String
        /// The command line after the command, secrets redacted.
        public var arguments: [Redacted]
        /// The template used, if any (an inline template's text, secrets redacted).
        public var template: Redacted?
        /// When the run started, RFC 3339 in UTC.
        public var startedAt: String
        public var durationMilliseconds: Int
        /// The share of the library this run took (`I/N`), when it was one shard of several.
        public var shard: String?
        /// Set on a merge of shard reports that lacks some shards (merged anyway, when asked).
        public var partial: Bool?
        /// The shards such a partial merge lacks, as `I/N`.
        public var missingShards: [String]?
        /// Set, with ``partial``, on the report of a run stopped before the end (SIGINT, SIGTERM): how many
        /// playlists it did not get to, which the report does not list. Added in schema version 1.2.
        public var notDone: Int?

        public init(
            command: String, arguments: [Redacted], template: Redacted?, startedAt: String, durationMilliseconds: Int,
            shard: String? = nil, partial: Bool? = nil, missingShards: [String]? = nil, notDone: Int? = nil
        ) {
            self.command = command
            self.arguments = arguments
            self.template = template
            self.startedAt = startedAt
            self.durationMilliseconds = durationMilliseconds
            self.shard = shard
            self.partial = partial
            self.missingShards = missingShards
            self.notDone = notDone
        }
    }

    public struct Summary: Hashable, Sendable, Codable {
        public var playlistsRead = 0
        public var changed = 0
        public var unchanged = 0
        public var failed = 0
        public var keysRewritten = 0
        public var keysInserted = 0
        public var keysRemoved = 0
        /// Session key lines inserted, rewritten or removed.
        public var sessionKeys = 0
        public var errors = 0
        public var warnings = 0
        public var infos = 0

        /// All zero: for a report written as its playlists come (``add(_:)`` each).
        public init() {}

        package init(_ playlists: [Playlist]) {
            for playlist in playlists { add(playlist) }
        }

        /// Counts `playlist` in.
        public mutating func add(_ playlist: Playlist) {
            playlistsRead += 1
            switch playlist.status {
            case .changed: changed += 1
            case .unchanged, .passed: unchanged += 1
            case .failed: failed += 1
            }
            for change in playlist.changes where change.tag != "EXT-X-VERSION" {
                switch change.action {
                case .rewritten: keysRewritten += 1
                case .inserted: keysInserted += 1
                case .removed: keysRemoved += 1
                }
                if change.tag == "EXT-X-SESSION-KEY" { sessionKeys += 1 }
            }
            errors += playlist.diagnostics.count { $0.severity == .error }
            warnings += playlist.diagnostics.count { $0.severity == .warning }
            infos += playlist.diagnostics.count { $0.severity == .info }
        }
    }

    public struct Playlist: Hashable, Sendable, Codable {
        public enum Status: String, Hashable, Sendable, Codable {
            /// `apply` changed it (or, with `--check`, would).
            case changed
            /// `apply` left it as it was.
            case unchanged
            /// `validate` found no error.
            case passed
            /// An error: `apply` kept it as it was; `validate` found one.
            case failed
        }

        public var path: String
        /// The package it belongs to: its master's path, or its own path when it stands alone.
        public var package: String
        public var kind: PlaylistKind
        public var status: Status
        /// In line order.
        public var changes: [ApplyChange]
        /// In line order.
        public var diagnostics: [Finding]
        /// With `validate --segments`: what a media playlist's segments measure (schema version 1.3).
        public var measured: Measured?
        /// With `validate`: what a master declares of its variants and renditions (schema version 1.4).
        public var declared: Declared?
        /// With `validate`: a media playlist's key periods, where each starts and the keys in force (schema
        /// version 1.4).
        public var keyPeriods: [KeyPeriod]?
        /// A media playlist's FairPlay key URIs as digests, with the KEYIDs that tell their keys: what `report
        /// merge` holds the titles of a sharded run to (schema version 1.5).
        public var keyURIs: [KeyURI]?

        public init(
            path: String, package: String, kind: PlaylistKind, status: Status, changes: [ApplyChange],
            diagnostics: [Finding], measured: Measured? = nil, declared: Declared? = nil, keyPeriods: [KeyPeriod]? = nil,
            keyURIs: [KeyURI]? = nil
        ) {
            self.path = path
            self.package = package
            self.kind = kind
            self.status = status
            self.changes = changes
            self.diagnostics = diagnostics
            self.measured = measured
            self.declared = declared
            self.keyPeriods = keyPeriods
            self.keyURIs = keyURIs
        }

        /// The order of a report: by package, then by path. It is the order a run over a library writes
        /// entries in (a package at a time), so a report can be written as it goes and still equal the
        /// merge of shards.
        public static func inReportOrder(_ lhs: Playlist, _ rhs: Playlist) -> Bool {
            (lhs.package, lhs.path) < (rhs.package, rhs.path)
        }
    }

    /// What a media playlist's segments measure, as reports carry it: whole numbers only (milliseconds,
    /// bytes, bits per second), the codecs found, and one row a segment.
    public struct Measured: Hashable, Sendable, Codable {
        public struct Segment: Hashable, Sendable, Codable {
            public var line: Int
            public var uri: Redacted
            public var durationMilliseconds: Int
            public var bytes: Int
            public var bitRate: Int
            /// What its EXTINF says (schema version 1.4).
            public var extinfMilliseconds: Int?

            public init(line: Int, uri: Redacted, durationMilliseconds: Int, bytes: Int, bitRate: Int, extinfMilliseconds: Int? = nil) {
                self.line = line
                self.uri = uri
                self.durationMilliseconds = durationMilliseconds
                self.bytes = bytes
                self.bitRate = bitRate
                self.extinfMilliseconds = extinfMilliseconds
            }
        }

        public var segmentsRead: Int
        public var segmentsNotMeasured: Int
        /// The bytes read of the segments (box headers and sample descriptions, TS ends), not their size.
        public var bytesRead: Int
        public var durationMilliseconds: Int
        public var peakBitRate: Int?
        public var averageBitRate: Int?
        public var codecs: [String]
        /// `WIDTHxHEIGHT`.
        public var resolution: String?
        public var channels: Int?
        public var segments: [Segment]

        public init(
            segmentsRead: Int, segmentsNotMeasured: Int, bytesRead: Int, durationMilliseconds: Int, peakBitRate: Int?,
            averageBitRate: Int?, codecs: [String], resolution: String?, channels: Int?, segments: [Segment]
        ) {
            self.segmentsRead = segmentsRead
            self.segmentsNotMeasured = segmentsNotMeasured
            self.bytesRead = bytesRead
            self.durationMilliseconds = durationMilliseconds
            self.peakBitRate = peakBitRate
            self.averageBitRate = averageBitRate
            self.codecs = codecs
            self.resolution = resolution
            self.channels = channels
            self.segments = segments
        }

        /// Whole milliseconds; 0 for what is not finite, and no more than a report can count (an EXTINF may
        /// be written with any number of digits).
        package static func milliseconds(_ seconds: Double) -> Int {
            guard seconds.isFinite else { return 0 }
            return Int((min(max(seconds, 0), 1e15) * 1000).rounded())
        }
    }

    /// What a master playlist declares: each variant (EXT-X-STREAM-INF) and rendition (EXT-X-MEDIA), as
    /// written.
    public struct Declared: Hashable, Sendable, Codable {
        public struct Variant: Hashable, Sendable, Codable {
            public var line: Int
            public var uri: Redacted
            public var bandwidth: Int?
            public var averageBandwidth: Int?
            /// As written, comma-separated.
            public var codecs: String?
            /// `WIDTHxHEIGHT`.
            public var resolution: String?
            /// As written.
            public var frameRate: String?
            public var audio: String?

            public init(
                line: Int, uri: Redacted, bandwidth: Int?, averageBandwidth: Int?, codecs: String?, resolution: String?, frameRate: String?,
                audio: String?
            ) {
                self.line = line
                self.uri = uri
                self.bandwidth = bandwidth
                self.averageBandwidth = averageBandwidth
                self.codecs = codecs
                self.resolution = resolution
                self.frameRate = frameRate
                self.audio = audio
            }
        }

        public struct Rendition: Hashable, Sendable, Codable {
            public var line: Int
            public var type: String
            public var group: String
            public var name: Redacted?
            public var uri: Redacted?
            public var channels: Int?

            public init(line: Int, type: String, group: String, name: Redacted?, uri: Redacted?, channels: Int?) {
                self.line = line
                self.type = type
                self.group = group
                self.name = name
                self.uri = uri
                self.channels = channels
            }
        }

        public var variants: [Variant]
        public var renditions: [Rendition]

        public init(variants: [Variant], renditions: [Rendition]) {
            self.variants = variants
            self.renditions = renditions
        }

    }

    /// A key period of a media playlist: from the segment after a change of the keys in force to the next.
    public struct KeyPeriod: Hashable, Sendable, Codable {
        public struct Key: Hashable, Sendable, Codable {
            /// KEYFORMAT (`identity` when absent).
            public var format: String
            public var method: String
            /// The URI, secrets redacted; `data:` URIs shortened.
            public var uri: Redacted?
            /// KEYID, or the key id a FairPlay URI names, as 32 hex digits.
            public var keyID: String?

            public init(format: String, method: String, uri: Redacted?, keyID: String?) {
                self.format = format
                self.method = method
                self.uri = uri
                self.keyID = keyID
            }
        }

        /// The line of the period's first segment.
        public var line: Int
        /// Its index among the playlist's segments, from 0.
        public var firstSegment: Int
        /// Its start: the EXTINF durations of the segments before it.
        public var startMilliseconds: Int
        /// Its length: the EXTINF durations of its segments.
        public var durationMilliseconds: Int
        /// The keys in force; none for clear segments.
        public var keys: [Key]

        public init(line: Int, firstSegment: Int, startMilliseconds: Int, durationMilliseconds: Int, keys: [Key]) {
            self.line = line
            self.firstSegment = firstSegment
            self.startMilliseconds = startMilliseconds
            self.durationMilliseconds = durationMilliseconds
            self.keys = keys
        }
    }

    /// A FairPlay key URI of a playlist as reports carry it: the line of the first key with it, the URI's
    /// digest (a 64-bit digest of it, never the URI), and the KEYID (or key truth's key id) that tells
    /// its key, where one does. A URI that holds a secret has no digest, only `holdsSecret`: a digest is the
    /// same in every run, so anyone with the report could test guesses of the token against it.
    public struct KeyURI: Hashable, Sendable, Codable {
        public var line: Int
        /// 16 lowercase hex digits; `nil` where the URI holds a secret.
        public var digest: String?
        public var holdsSecret: Bool?
        public var keyID: String?

        public init(line: Int, digest: String?, keyID: String?) {
            self.line = line
            self.digest = digest
            self.holdsSecret = digest == nil ? true : nil
            self.keyID = keyID
        }

        /// The entries of a playlist's uses, `nil` when it has none.
        package static func list(_ uses: [(line: Int, digest: UInt64, keyID: String?, holdsSecret: Bool)]) -> [KeyURI]? {
            guard !uses.isEmpty else { return nil }
            return uses.map { use in
                KeyURI(line: use.line, digest: use.holdsSecret ? nil : Hex.string(use.digest), keyID: use.keyID)
            }
        }
    }

    /// A diagnostic as reports carry it: the path is the playlist's.
    public struct Finding: Hashable, Sendable, Codable {
        public var rule: String
        public var severity: Severity
        public var line: Int
        public var column: Int
        public var message: Redacted

        public init(rule: String, severity: Severity, line: Int, column: Int, message: Redacted) {
            self.rule = rule
            self.severity = severity
            self.line = line
            self.column = column
            self.message = message
        }

        /// A diagnostic's finding, its message as `redaction` leaves it.
        public init(_ diagnostic: Diagnostic, _ redaction: Redaction) {
            self.init(
                rule: diagnostic.id.rawValue, severity: diagnostic.severity, line: diagnostic.location.line,
                column: diagnostic.location.column, message: redaction.redacted(diagnostic.message))
        }
    }
}
