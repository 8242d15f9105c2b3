import CPIX
import HLS
import MP4
import SKDFiles
import SKDKeys
import SKDReportModel

/// What key truth gives the key periods of one media playlist as `apply` writes them: the CPIX key of its
/// track and period, or the default KID of the init segment the period's `EXT-X-MAP` names. A period's is
/// looked for when its first FairPlay key is rendered (a clear lead is not asked about), and kept while the
/// next periods have the same key.
struct PeriodKeyTruth {
    /// A period's key: its id (for the template's values and the change that writes it), the values it
    /// gives the template and where they come from, and the key server's FairPlay key line when the
    /// template writes the document's key. A class: handed to every key of every period, one reference
    /// rather than a copy of each field.
    final class Key {
        let keyID: (kid: KeyID, source: ApplyChange.KeyIDSource, file: String)
        let values: [String: String]
        let source: String
        let signaled: KeyAttributes?
        /// The key id's hex digits: what the period's URI stands for, to the key map.
        let hex: [UInt8]

        init(
            keyID: (kid: KeyID, source: ApplyChange.KeyIDSource, file: String), values: [String: String], source: String,
            signaled: KeyAttributes?
        ) {
            self.keyID = keyID
            self.values = values
            self.source = source
            self.signaled = signaled
            hex = Array(keyID.kid.hex.utf8)
        }
    }

    private let path: String
    private let truth: KeyTruth
    private let writesDocumentKey: Bool
    /// The CPIX key of each key period, when a document is given; or why the title has none.
    private var chooser: TrackKeyChooser?
    private var documentProblem: KeyTruthProblem?
    /// The `EXT-X-MAP` in force, for `--kid-from media`.
    private var map: MapTag?
    /// The key of the period last asked about, and that period.
    private(set) var current: Key?
    private var period: Int?

    /// The key truth of the playlist `identity`, whose title's content id (for choosing a document) is
    /// `contentID`; `nil` without key truth.
    init?(_ truth: KeyTruth, identity: PlaylistIdentity, contentID: String?, tracks: [TrackContext], writesDocumentKey: Bool) {
        guard !truth.isEmpty else { return nil }
        self.path = identity.path
        self.truth = truth
        self.writesDocumentKey = writesDocumentKey
        if !truth.documents.isEmpty {
            switch truth.document(for: contentID) {
            case .success(let document): chooser = TrackKeyChooser(document: document, tracks: tracks)
            case .failure(let problem): documentProblem = problem
            }
        }
    }

    /// Notes the `EXT-X-MAP` now in force (its URI substituted).
    mutating func note(map: MapTag) { self.map = map }

    /// The key of key period `index`, or why there is none.
    mutating func key(forPeriod index: Int) -> Result<Key, KeyTruthProblem> {
        if let documentProblem { return .failure(documentProblem) }
        if period == index, let current { return .success(current) }
        period = index
        let found = lookUp(max(index, 0))
        current = try? found.get()
        return found
    }

    private mutating func lookUp(_ index: Int) -> Result<Key, KeyTruthProblem> {
        if chooser != nil {
            switch chooser!.key(forKeyPeriod: index) {
            case .success(let key):
                // The same key as the period before (a document without periods gives every period one): kept.
                if let current, current.keyID.kid == key.kid { return .success(current) }
                let signaled = writesDocumentKey ? chooser!.signaling(of: key.kid)?.media : nil
                return .success(
                    Key(
                        keyID: (key.kid, .cpix, chooser!.document.path), values: chooser!.values(of: key),
                        source: "the CPIX document \(chooser!.document.path)", signaled: signaled))
            case .failure(let problem):
                return .failure(problem)
            }
        }
        return mediaKeyID().map { keyID, file in
            if let current, current.keyID.kid == keyID, current.keyID.file == file { return current }
            return Key(
                keyID: (keyID, .media, file), values: ["kid": keyID.hex, "kid_uuid": keyID.uuid], source: "the init segment \(file)",
                signaled: nil)
        }
    }

    /// The default KID of the init segment in force, and its file.
    private func mediaKeyID() -> Result<(KeyID, String), KeyTruthProblem> {
        guard let map else {
            return .failure(KeyTruthProblem("no EXT-X-MAP is in force here: a KID from the media needs fMP4 init segments"))
        }
        switch truth.initSegments.segment(ofMap: map.uri, byteRange: map.byteRange, inPlaylistAt: path) {
        case .remote(let uri):
            return .failure(KeyTruthProblem("the init segment \(uri) is not a local file, so its KID cannot be read here"))
        case .failed(let failure, _):
            return .failure(KeyTruthProblem(failure.description))
        case .read(let segment, let file):
            let kids = segment.tracks.filter(\.isEncrypted).compactMap(\.defaultKID).reduce(into: [KeyID]()) { list, kid in
                if !list.contains(kid) { list.append(kid) }
            }
            guard let kid = kids.first else {
                return .failure(
                    KeyTruthProblem("the init segment \(file) is clear: no sample entry of it is protected, so it names no KID"))
            }
            guard kids.count == 1 else {
                return .failure(
                    KeyTruthProblem("the init segment \(file) has tracks with different KIDs (\(kids.map(\.uuid).joined(separator: ", ")))")
                )
            }
            guard !kid.isZero else {
                return .failure(KeyTruthProblem("the init segment \(file) has an all-zero default KID, which names no key"))
            }
            return .success((kid, file))
        }
    }
}
