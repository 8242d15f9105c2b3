import CPIX
import HLS
import MP4
import SKDKeys

/// What `validate --media --cpix` knows of one playlist while it streams: the `EXT-X-MAP` in force and its
/// init segment (read once per file for the whole run), and the CPIX key of the playlist's track in each
/// key period. The `MEDIA` and `CPIX` rules read it; the validator keeps it up to date.
final class KeyTruthContext {
    /// What became of the init segment of the map in force.
    enum InitSegmentState {
        /// No `EXT-X-MAP` in force.
        case none
        /// A URI with a scheme, or root-relative: not a file here.
        case remote(String)
        case read(InitSegment, file: String)
        case failed(InitSegmentFile.Failure)

        var isNone: Bool {
            if case .none = self { return true }
            return false
        }
    }

    private let path: String
    /// Set with `--media`.
    let initSegments: InitSegmentStore?
    /// With `--cpix`: the document of the playlist's title and a chooser over it, or why there is none.
    private(set) var chooser: TrackKeyChooser?
    private(set) var documentProblem: KeyTruthProblem?
    private let documents: [CPIXDocument]
    private let tracks: [TrackContext]
    /// The map in force and the line of its tag.
    private(set) var map: (tag: MapTag, line: Int)?
    /// Bumped whenever a key or a map tag is read: a rule checks a period once, at its first segment.
    private(set) var serial = 0
    /// Counts EXT-X-MAPs only: a key rotation does not change the init segment, so its answer is kept
    /// across key periods (finding the file again at each of thousands of periods cost most of a run).
    private var mapSerial = 0
    private var cached: (mapSerial: Int, state: InitSegmentState)?
    private var cachedView: (serial: Int, view: KeyPeriodView)?

    /// The keys in force, seen once per period for all the rules that look.
    func period(_ context: RuleContext) -> KeyPeriodView {
        if let cachedView, cachedView.serial == serial { return cachedView.view }
        let view = KeyPeriodView(context)
        cachedView = (serial, view)
        return view
    }

    init(path: String, truth: KeyTruth, checksMedia: Bool, tracks: [TrackContext]) {
        self.path = path
        self.initSegments = checksMedia ? truth.initSegments : nil
        self.documents = truth.documents
        self.tracks = tracks
    }

    var checksCPIX: Bool { !documents.isEmpty }

    func noteKey() { serial += 1 }

    func noteMap(_ tag: MapTag, line: Int) {
        map = (tag, line)
        serial += 1
        mapSerial += 1
    }

    /// The init segment of the map in force (read when first asked for, once per map).
    var initSegment: InitSegmentState {
        if let cached, cached.mapSerial == mapSerial { return cached.state }
        let state: InitSegmentState
        if let initSegments, let map {
            switch initSegments.segment(ofMap: map.tag.uri, byteRange: map.tag.byteRange, inPlaylistAt: path) {
            case .remote(let uri): state = .remote(uri)
            case .read(let segment, let file): state = .read(segment, file: file)
            case .failed(let failure, _): state = .failed(failure)
            }
        } else {
            state = .none
        }
        cached = (mapSerial, state)
        return state
    }

    /// The CPIX key of the playlist's track in the key period whose FairPlay key is on `keyLine`. The
    /// document is chosen at the first call, by the key ids the playlist names, when several were given.
    func cpixKey(forKeyOn keyLine: Int, naming kid: KeyID?) -> Result<ContentKey, KeyTruthProblem>? {
        guard let document = cpixDocument(naming: kid) else { return nil }
        if case .failure(let problem) = document { return .failure(problem) }
        return chooser!.key(forKeyPeriod: keyLine)
    }

    /// The document of the playlist's title, chosen (when several were given) by the first key id the
    /// playlist names; `nil` without `--cpix`.
    func cpixDocument(naming kid: KeyID?) -> Result<CPIXDocument, KeyTruthProblem>? {
        guard checksCPIX else { return nil }
        if chooser == nil, documentProblem == nil {
            switch document(naming: kid) {
            case .success(let document): chooser = TrackKeyChooser(document: document, tracks: tracks)
            case .failure(let problem): documentProblem = problem
            }
        }
        if let documentProblem { return .failure(documentProblem) }
        return .success(chooser!.document)
    }

    /// The document's FairPlay signaling of `kid`, parsed once per playlist (the chooser keeps it); `nil`
    /// without a document for the playlist.
    func signaling(of kid: KeyID) -> CPIXFairPlayKey? {
        guard case .success? = cpixDocument(naming: kid) else { return nil }
        return chooser!.signaling(of: kid)
    }

    /// One document: that one; several: the one holding `kid`.
    private func document(naming kid: KeyID?) -> Result<CPIXDocument, KeyTruthProblem> {
        if documents.count == 1 { return .success(documents[0]) }
        let holding = documents.filter { document in kid.map { document.key($0) != nil } ?? false }
        guard holding.count == 1 else {
            return .failure(
                KeyTruthProblem(
                    holding.isEmpty
                        ? "none of the \(documents.count) CPIX documents holds a key this playlist names, so its title's document is unknown"
                        : "\(holding.count) CPIX documents hold the key id \(kid!)"))
        }
        return .success(holding[0])
    }
}
