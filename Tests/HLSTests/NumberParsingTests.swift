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
