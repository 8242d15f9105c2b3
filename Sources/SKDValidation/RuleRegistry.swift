import HLS
import SKDFiles
import SKDKeys

/// Every validation rule, listed once. `skdpack rules` prints this catalogue together with the findings
/// the playlist reader makes itself (``ParseDiagnostics``).
public enum RuleRegistry {
    /// The playlist rules, run in one streaming pass per playlist.
    static let playlistRules: [any ValidationRule.Type] = [
        // HLS: structure beyond what the reader checks line by line.
        MixedPlaylistRule.self, TargetDurationMissingRule.self, ExtInfOverTargetRule.self, VersionRule.self,
        ProgramDateTimeOverlapRule.self,
        SegmentsAfterEndListRule.self, URISpaceRule.self, VodEndListRule.self, EmptyPresentationRule.self, EnumeratedValueRule.self,
        SequenceTagPlacementRule.self, ByteRangeOffsetRule.self, MapWithoutIVRule.self, DateRangeRule.self, DateRangeOverlapRule.self,
        DateRangeWithoutDateTimeRule.self, RenditionAttributesRule.self, RenditionGroupRule.self,
        GroupReferenceRule.self, ContentSteeringPathwayRule.self, SessionDataRule.self, DefineAttributesRule.self, LowLatencyRule.self,
        ServerControlRule.self, PartHoldBackRule.self, PartDurationRule.self, NormalizationRule.self,
        // HLS SHOULDs, as warnings.
        ProgramDateTimePrecisionRule.self, CodecsMissingRule.self, AudioChannelsRule.self, AutoselectDistinctRule.self,
        StartOffsetRule.self, DateRangePrecisionRule.self, VersionTooHighRule.self,
        // KEY: EXT-X-KEY and EXT-X-SESSION-KEY.
        KeyMethodUnknownRule.self, KeyIVForbiddenRule.self, KeyNoneAttributesRule.self, KeyFormatVersionsSyntaxRule.self,
        KeyMethodMismatchRule.self, SessionKeyNoneRule.self, SessionKeyInMediaPlaylistRule.self,
        SessionKeyDuplicateRule.self,
        // FPS: FairPlay Streaming.
        FairPlayMethodRule.self, FairPlayKeyFormatRule.self, FairPlaySchemeRule.self, FairPlaySlashesRule.self, FairPlayURIEmptyRule.self,
        FairPlayNestedSchemeRule.self,
        LeftoverPlaceholderRule.self, FairPlayKeyFormatVersionsRule.self, FairPlayIVRule.self,
        FairPlayURILengthRule.self, FairPlayKeyNotRotatedRule.self, FairPlayKeyMissingRule.self,
        // TPL: with --template and --allow-host.
        TemplateMatchRule.self, CatalogueRowMissingRule.self, LicenseHostRule.self,
        // MEDIA: with --media, against the init segments.
        MediaInitUnreadableRule.self, MediaSchemeRule.self, MediaEncryptionMismatchRule.self, MediaKeyIDRule.self,
        MediaZeroKeyIDRule.self, MediaUnannouncedSystemRule.self,
        // SEG: with --segments, against the media segments themselves.
        SegmentReadRule.self, SegmentNotReadRule.self, SegmentEncryptionRule.self, SegmentKeyIDRule.self, SegmentDurationRule.self,
        SegmentOverTargetRule.self, SegmentSyncStartRule.self, SegmentIndependenceRule.self, SegmentContinuityRule.self,
        SegmentPatternRule.self, SegmentIFrameSyncRule.self, SegmentIFrameInitRule.self,
        SegmentFormatChangeRule.self,
        // CPIX: with --cpix, against the key server's document.
        CPIXNoKeyRule.self, CPIXSignalingRule.self, CPIXUnknownKeyIDRule.self,
    ]

    /// Findings about a package as a whole: made while its playlists are found, or by ``PackageValidator``
    /// once they are read.
    static let packageKinds: [DiagnosticKind] =
        [
            KeyMapDiagnostics.uriTwoKeys, KeyMapDiagnostics.keyTwoURIs,
            KeyMapRule.unknownKind, RunKeyMap.kind, RunKeyMap.notComparedKind,
        ] + PackageDiagnostics.all + PackageValidator.rules.flatMap(\.kinds)

    /// The kinds `validate` makes (what `--disable` accepts).
    public static let validationKinds: [DiagnosticKind] =
        (ParseDiagnostics.all + playlistRules.map { $0.kind } + packageKinds).sorted { $0.id < $1.id }
}
