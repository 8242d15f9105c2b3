/// Reads a transport stream segment's first and last packets through `read`: the program tables and the
/// first PES packets from its start, the last presentation times from its end. What lies between (most of
/// a segment) is never read.
struct TransportSegmentReader {
    static let packetSize = 188
    /// How much of the start is read: the tables and the first PES packet of each stream (an access
    /// unit's NAL unit headers come first in it).
    static let headLength = 64 * 1024
    /// How much of the end is read first (a few frames of each stream at HLS bit rates), doubled up to
    /// ``endLimit`` while a stream has no PES packet start in it.
    static let tailLength = 32 * 1024
    static let endLimit = 1024 * 1024
    /// The most of one PES packet gathered for the first access unit's NAL units or ADTS header.
    static let gatherLimit = 256 * 1024

    let size: Int
    let read: (_ offset: Int, _ length: Int) throws(TransportFormatError) -> [UInt8]
    var segment = TransportSegment()
    private var continuity: [UInt16: UInt8] = [:]
    private var pmtSection: [UInt8] = []
    /// The first PES packet's payload of each stream still being gathered.
    private var gathering: [UInt16: [UInt8]] = [:]
    private var gathered: Set<UInt16> = []
    private var times: [UInt16: [UInt64]] = [:]
    /// The streams with a PES packet start in what was read of the end.
    private var tailPTS: Set<UInt16> = []
    private var readingTail = false

    init(size: Int, read: @escaping (Int, Int) throws(TransportFormatError) -> [UInt8]) {
        self.size = size
        self.read = read
        segment.size = size
    }

    mutating func run() throws(TransportFormatError) -> TransportSegment {
        guard size >= Self.packetSize else {
            throw TransportFormatError(offset: 0, reason: "\(size) bytes: shorter than one transport packet (188 bytes)")
        }
        let headLength = min(size, Self.headLength)
        try packets(in: 0..<headLength)
        guard segment.pmtPID != nil else {
            throw TransportFormatError(offset: 0, reason: "no PAT in the first \(headLength) bytes: not a transport stream segment")
        }
        guard !segment.streams.isEmpty else {
            throw TransportFormatError(offset: 0, reason: "no PMT in the first \(headLength) bytes")
        }
        // The end, from a packet boundary as counted from the start, read further back while a stream with
        // a timestamp at the start has none there.
        var tailLength = Self.tailLength
        var tailStart = size
        readingTail = true
        while tailStart > headLength {
            let start = max(headLength, (size - tailLength) / Self.packetSize * Self.packetSize)
            guard start < tailStart else { break }
            continuity.removeAll()
            try packets(in: start..<tailStart)
            tailStart = start
            let waiting = segment.streams.contains { $0.firstPTS != nil && !tailPTS.contains($0.pid) }
            guard waiting, tailLength < Self.endLimit else { break }
            tailLength *= 2
        }
        finishGathering()
        for index in segment.streams.indices {
            let pts = times[segment.streams[index].pid] ?? []
            segment.streams[index].frameDuration = Self.shortestStep(pts)
            // The earliest and the latest time read (presentation order is not file order: a B-frame after an
            // I-frame is shown before it), as offsets from the first PES packet's, across a wrap.
            if let first = segment.streams[index].firstPTS, !pts.isEmpty {
                let offsets = pts.map { PresentationTime.offset(from: first, to: $0) }
                segment.streams[index].firstPTS = PresentationTime.adding(offsets.min()!, to: first)
                segment.streams[index].lastPTS = PresentationTime.adding(offsets.max()!, to: first)
            }
        }
        return segment
    }

    /// The packets in `range`, resynchronised on 0x47 where a packet does not start with it.
    private mutating func packets(in range: Range<Int>) throws(TransportFormatError) {
        let bytes = try read(range.lowerBound, range.count)
        segment.bytesRead += bytes.count
        var position = 0
        while position + Self.packetSize <= bytes.count {
            guard bytes[position] == 0x47 else {
                segment.syncLosses.append(range.lowerBound + position)
                guard let next = Self.resynchronise(bytes, from: position + 1) else { return }
                position = next
                continue
            }
            try packet(bytes[position..<(position + Self.packetSize)], offset: range.lowerBound + position)
            position += Self.packetSize
        }
    }

    /// The next offset where two packets in a row start with 0x47.
    private static func resynchronise(_ bytes: [UInt8], from start: Int) -> Int? {
        var position = start
        while position + packetSize < bytes.count {
            if bytes[position] == 0x47, bytes[position + packetSize] == 0x47 { return position }
            position += 1
        }
        return nil
    }

    private mutating func packet(_ packet: ArraySlice<UInt8>, offset: Int) throws(TransportFormatError) {
        let base = packet.startIndex
        let pid = UInt16(packet[base + 1] & 0x1F) << 8 | UInt16(packet[base + 2])
        let payloadStart = packet[base + 1] & 0x40 != 0
        let control = (packet[base + 3] >> 4) & 0x3
        let counter = packet[base + 3] & 0x0F
        var payload = base + 4
        if control & 0x2 != 0 { payload += 1 + Int(packet[base + 4]) }
        if control & 0x1 != 0, pid != 0x1FFF {
            if let last = continuity[pid], counter != (last + 1) & 0x0F, counter != last {
                segment.continuityErrors.append(ContinuityError(offset: offset, pid: pid, expected: (last + 1) & 0x0F, found: counter))
            }
            continuity[pid] = counter
        }
        guard control & 0x1 != 0, payload < packet.endIndex else { return }
        let data = packet[payload...]
        if pid == 0 {
            if payloadStart { programAssociation(data) }
        } else if pid == segment.pmtPID, segment.streams.isEmpty {
            try programMap(data, start: payloadStart, offset: offset)
        } else if let index = segment.streams.firstIndex(where: { $0.pid == pid }) {
            elementary(data, start: payloadStart, stream: index)
        }
    }

    // MARK: Tables

    /// The PAT's first program with a PMT.
    private mutating func programAssociation(_ data: ArraySlice<UInt8>) {
        guard segment.pmtPID == nil, let section = Self.section(data), section.count >= 12 else { return }
        let s = section.startIndex
        let length = Int(section[s + 1] & 0x0F) << 8 | Int(section[s + 2])
        var entry = s + 8
        while entry + 4 <= min(section.endIndex, s + 3 + length - 4) {
            let program = UInt16(section[entry]) << 8 | UInt16(section[entry + 1])
            if program != 0 {
                segment.pmtPID = UInt16(section[entry + 2] & 0x1F) << 8 | UInt16(section[entry + 3])
                return
            }
            entry += 4
        }
    }

    /// The PMT, gathered over its packets: stream types and descriptors.
    private mutating func programMap(_ data: ArraySlice<UInt8>, start: Bool, offset: Int) throws(TransportFormatError) {
        if start {
            guard let section = Self.section(data) else { return }
            pmtSection = Array(section)
        } else if !pmtSection.isEmpty {
            pmtSection += data
        }
        guard pmtSection.count >= 3 else { return }
        let length = Int(pmtSection[1] & 0x0F) << 8 | Int(pmtSection[2])
        guard length <= 1021 else { throw TransportFormatError(offset: offset, reason: "the PMT's section_length \(length) is above 1021") }
        guard pmtSection.count >= 3 + length, length >= 13 else { return }
        let section = pmtSection[0..<(3 + length - 4)]
        let infoLength = Int(section[10] & 0x0F) << 8 | Int(section[11])
        var entry = 12 + infoLength
        var streams: [ElementaryStream] = []
        while entry + 5 <= section.endIndex {
            var stream = ElementaryStream(
                pid: UInt16(section[entry + 1] & 0x1F) << 8 | UInt16(section[entry + 2]), streamType: section[entry])
            let esInfo = Int(section[entry + 3] & 0x0F) << 8 | Int(section[entry + 4])
            var descriptor = entry + 5
            let end = min(section.endIndex, descriptor + esInfo)
            while descriptor + 2 <= end {
                let tag = section[descriptor]
                let body = (descriptor + 2)..<min(end, descriptor + 2 + Int(section[descriptor + 1]))
                if body.count >= 4, tag == 0x0F || tag == 0x05 {
                    let text = String(
                        decoding: section[body.lowerBound..<(body.lowerBound + 4)].map { $0 >= 0x20 && $0 < 0x7F ? $0 : 0x3F },
                        as: UTF8.self)
                    if tag == 0x0F { stream.privateDataIndicator = text } else { stream.registrations.append(text) }
                }
                descriptor = body.upperBound
            }
            streams.append(stream)
            entry = descriptor
        }
        segment.streams = streams
        pmtSection = []
    }

    /// A PSI section from a payload that starts one: after its pointer_field.
    private static func section(_ data: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard let pointer = data.first, data.count > 1 + Int(pointer) else { return nil }
        return data[(data.startIndex + 1 + Int(pointer))...]
    }

    // MARK: PES

    private mutating func elementary(_ data: ArraySlice<UInt8>, start: Bool, stream index: Int) {
        let pid = segment.streams[index].pid
        if start {
            if gathering[pid] != nil { finish(pid) }
            guard data.count >= 9, data[data.startIndex] == 0, data[data.startIndex + 1] == 0, data[data.startIndex + 2] == 1 else {
                return
            }
            let s = data.startIndex
            let headerLength = Int(data[s + 8])
            if data[s + 7] & 0x80 != 0, data.count >= 14 {
                let pts = Self.timestamp(data[(s + 9)..<(s + 14)])
                if segment.streams[index].firstPTS == nil { segment.streams[index].firstPTS = pts }
                if readingTail { tailPTS.insert(pid) }
                times[pid, default: []].append(pts)
            }
            if !gathered.contains(pid), s + 9 + headerLength <= data.endIndex {
                gathering[pid] = Array(data[(s + 9 + headerLength)...])
            }
        } else if gathering[pid] != nil, gathering[pid]!.count < Self.gatherLimit {
            gathering[pid]! += data
        }
    }

    private mutating func finishGathering() {
        for pid in gathering.keys.sorted() { finish(pid) }
    }

    /// What the first PES packet of a stream says: its NAL units and SPS, or its ADTS header.
    private mutating func finish(_ pid: UInt16) {
        guard let payload = gathering.removeValue(forKey: pid), let index = segment.streams.firstIndex(where: { $0.pid == pid }) else {
            return
        }
        gathered.insert(pid)
        switch segment.streams[index].streamType {
        case 0x1B, 0xDB:
            let units = NALUnits.units(in: payload)
            segment.streams[index].firstNALUnitTypes = units.map { payload[$0.lowerBound] & 0x1F }
            if let sps = units.first(where: { payload[$0.lowerBound] & 0x1F == 7 }) {
                segment.streams[index].sequenceParameters = NALUnits.sequenceParameters(Array(payload[sps]))
            }
        case 0x24:
            segment.streams[index].firstNALUnitTypes = NALUnits.units(in: payload).map { (payload[$0.lowerBound] >> 1) & 0x3F }
        case 0x0F, 0xCF:
            segment.streams[index].adts = Self.adts(payload)
        default:
            break
        }
    }

    /// A PES timestamp's 33 bits from its five bytes.
    private static func timestamp(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        let b = Array(bytes)
        return UInt64(b[0] & 0x0E) << 29 | UInt64(b[1]) << 22 | UInt64(b[2] & 0xFE) << 14 | UInt64(b[3]) << 7 | UInt64(b[4]) >> 1
    }

    /// The shortest positive step between the times read (in presentation order).
    private static func shortestStep(_ times: [UInt64]) -> UInt64? {
        let sorted = times.sorted()
        var shortest: UInt64?
        for (earlier, later) in zip(sorted, sorted.dropFirst()) where later > earlier {
            shortest = min(shortest ?? .max, later - earlier)
        }
        return shortest
    }

    /// The first ADTS header (ISO/IEC 13818-7 6.2): syncword 0xFFF.
    private static func adts(_ payload: [UInt8]) -> ADTSHeader? {
        guard payload.count >= 7, payload[0] == 0xFF, payload[1] & 0xF0 == 0xF0 else { return nil }
        let frequencies = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]
        let frequencyIndex = Int(payload[2] >> 2) & 0x0F
        return ADTSHeader(
            objectType: Int(payload[2] >> 6) + 1, samplingFrequency: frequencyIndex < frequencies.count ? frequencies[frequencyIndex] : nil,
            channels: Int(payload[2] & 0x01) << 2 | Int(payload[3] >> 6))
    }
}
