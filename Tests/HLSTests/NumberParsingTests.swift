import HLS
import Testing

@Suite("Numbers")
struct NumberParsingTests {
    @Test(
        "decimal floats match the standard library's correctly rounded parse",
        arguments: [
            "0", "6", "6.006", "10.010", "0.33334", "4.004", "29.970", "123456789012345", "1234567890.123456789",
            "0.1", "0.000000000000000000000001", "9007199254740993", ".5", "5.",
        ])
    func floats(text: String) {
        let expected = Double(text.hasPrefix(".") ? "0" + text : text.hasSuffix(".") ? text + "0" : text)
        #expect(NumberParsing.decimalFloat(Array(text.utf8), signed: false) == expected)
    }

    @Test("what is not a decimal float", arguments: ["", ".", "1..2", "1e5", "-1", "+1", "1,5", "NaN", "inf"])
    func notFloats(text: String) {
        #expect(NumberParsing.decimalFloat(Array(text.utf8), signed: false) == nil)
    }

    @Test("signed floats")
    func signed() {
        #expect(NumberParsing.decimalFloat(Array("-12.5".utf8), signed: true) == -12.5)
        #expect(NumberParsing.decimalFloat(Array("-".utf8), signed: true) == nil)
        #expect(NumberParsing.decimalFloat(Array("--1".utf8), signed: true) == nil)
    }
}

@Suite("date-times as instants")
struct DateTimeParsingTests {
    @Test("ISO 8601 date-times with a zone are seconds since 1970, whatever the zone they are written in")
    func instants() throws {
        #expect(DateTimeParsing.seconds("1970-01-01T00:00:00Z") == 0)
        #expect(DateTimeParsing.seconds("2000-02-29T00:00:00Z") == 951_782_400)
        #expect(DateTimeParsing.seconds("2026-11-23T11:00:00+01:00") == DateTimeParsing.seconds("2026-11-23T10:00:00.000Z"))
        #expect(DateTimeParsing.seconds("2026-11-23T05:00:00-0500") == DateTimeParsing.seconds("2026-11-23T10:00:00Z"))
        let fraction = try #require(DateTimeParsing.seconds("1970-01-01T00:00:01.250Z"))
        #expect(abs(fraction - 1.25) < 1e-9)
    }

    @Test(
        "without a zone, or not a date-time, the instant is unknown",
        arguments: [
            "2026-11-23T10:00:00", "2026-13-01T00:00:00Z", "2026-11-23T10:00:00.Z", "2026-11-23T10:00:00+1:00", "yesterday", "",
        ])
    func unknown(_ text: String) {
        #expect(DateTimeParsing.seconds(text) == nil)
    }
}
