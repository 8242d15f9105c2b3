/// Reads the ISO 8601 date-times of RFC 8216 (EXT-X-PROGRAM-DATE-TIME, DATERANGE START-DATE and END-DATE:
/// `2026-11-23T10:00:00.000Z`, `2026-11-23T11:00:00+01:00`) as seconds since 1970, so that two written in
/// different time zones can be compared and a DURATION added.
public enum DateTimeParsing {
    /// Seconds since 1970-01-01T00:00:00Z, or `nil` unless `text` is `YYYY-MM-DDThh:mm:ss[.fraction]` with a
    /// time zone (`Z`, `±hh:mm` or `±hhmm`); without one the instant is not known.
    public static func seconds(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.withUnsafeBytes({ TagChecker.looksLikeDateTime($0) }) else { return nil }
        func number(_ range: Range<Int>) -> Int {
            range.reduce(0) { $0 * 10 + Int(bytes[$1] - 0x30) }
        }
        let (year, month, day) = (number(0..<4), number(5..<7), number(8..<10))
        let (hour, minute, second) = (number(11..<13), number(14..<16), number(17..<19))
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        var index = 19
        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            let start = index
            while index < bytes.count, bytes[index] &- 0x30 < 10 {
                fraction += Double(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard let offset = zoneOffset(bytes[index...]) else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        return Double(days * 86_400 + hour * 3_600 + minute * 60 + second - offset) + fraction
    }

    /// `Z` → 0; `+01:00`, `+0100` → 3600; anything else `nil`.
    private static func zoneOffset(_ zone: ArraySlice<UInt8>) -> Int? {
        let zone = Array(zone)
        if zone == [UInt8(ascii: "Z")] || zone == [UInt8(ascii: "z")] { return 0 }
        guard let sign = zone.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        let digits = zone.dropFirst().filter { $0 != UInt8(ascii: ":") }
        guard digits.count == 4, digits.allSatisfy({ $0 &- 0x30 < 10 }), zone.count == 5 || zone[3] == UInt8(ascii: ":")
        else { return nil }
        let values = digits.map { Int($0 - 0x30) }
        let seconds = (values[0] * 10 + values[1]) * 3_600 + (values[2] * 10 + values[3]) * 60
        return sign == UInt8(ascii: "-") ? -seconds : seconds
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's days_from_civil).
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
