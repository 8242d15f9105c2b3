import HLS
import Testing

@Suite("Attribute lists (RFC 8216 4.2)")
struct AttributeListParserTests {
    @Test("reads every value type")
    func everyValueType() throws {
        let result = parseAttributes(
            #"BANDWIDTH=1280000,IV=0x0123456789ABCDEF0123456789abcdef,FRAME-RATE=29.970,TIME-OFFSET=-4.5,"#
                + #"CODECS="avc1.4d401f,mp4a.40.2",TYPE=AUDIO,RESOLUTION=1920x1080"#)
        #expect(result.issues.isEmpty)
        let list = result.list
        #expect(list.names == ["BANDWIDTH", "IV", "FRAME-RATE", "TIME-OFFSET", "CODECS", "TYPE", "RESOLUTION"])
        #expect(list["BANDWIDTH"]?.typedValue(as: .decimalInteger) == .decimalInteger(1_280_000))
        #expect(list["IV"]?.typedValue(as: .hexadecimalSequence) == .hexadecimalSequence("0123456789ABCDEF0123456789abcdef"))
        #expect(list["FRAME-RATE"]?.typedValue(as: .decimalFloatingPoint) == .decimalFloatingPoint(29.97))
        #expect(list["TIME-OFFSET"]?.typedValue(as: .signedDecimalFloatingPoint) == .signedDecimalFloatingPoint(-4.5))
        #expect(list["CODECS"]?.typedValue(as: .quotedString) == .quotedString("avc1.4d401f,mp4a.40.2"))
        #expect(list["TYPE"]?.typedValue(as: .enumeratedString) == .enumeratedString("AUDIO"))
        #expect(list["RESOLUTION"]?.typedValue(as: .decimalResolution) == .decimalResolution(width: 1920, height: 1080))
    }

    @Test(
        "a value of the wrong type reads as nil",
        arguments: [
            ("X=\"12\"", AttributeType.decimalInteger),
            ("X=12a", .decimalInteger),
            ("X=18446744073709551616", .decimalInteger),
            ("X=0xZZ", .hexadecimalSequence),
            ("X=0x", .hexadecimalSequence),
            ("X=1.2.3", .decimalFloatingPoint),
            ("X=-1.5", .decimalFloatingPoint),
            ("X=1920x", .decimalResolution),
            ("X=NONE", .quotedString),
            ("X=\"YES\"", .enumeratedString),
        ])
    func wrongType(list: String, type: AttributeType) throws {
        let attribute = try #require(parseAttributes(list).list["X"])
        #expect(attribute.typedValue(as: type) == nil)
    }

    @Test("the largest decimal-integer is 2^64-1")
    func largestInteger() throws {
        let attribute = try #require(parseAttributes("X=18446744073709551615").list["X"])
        #expect(attribute.typedValue(as: .decimalInteger) == .decimalInteger(.max))
    }

    @Test("keeps the byte ranges of each pair and value")
    func ranges() throws {
        let result = parseAttributes(#"METHOD=SAMPLE-AES,URI="skd://a""#)
        let uri = try #require(result.list["URI"])
        #expect(uri.pairRange == 21..<34)
        #expect(uri.valueRange == 25..<34)
        #expect(uri.column == 22)
        #expect(uri.valueColumn == 26)
    }

    @Test(
        "errors are located and the parser recovers",
        arguments: [
            ("A=1, B=2", "HLS-attribute-whitespace", 8, ["A", "B"]),
            ("A=1,A=2", "HLS-attribute-duplicate", 8, ["A", "A"]),
            ("A=1,URI=\"skd://x", "HLS-attribute-unterminated-quote", 12, ["A", "URI"]),
            ("A=1,B", "HLS-attribute-syntax", 9, ["A"]),
            ("A=1,=2,C=3", "HLS-attribute-syntax", 8, ["A", "C"]),
            ("A=1,", "HLS-attribute-syntax", 7, ["A"]),
            ("A=1,b=2", "HLS-attribute-syntax", 8, ["A", "b"]),
            ("A=\"x\"y,B=2", "HLS-attribute-syntax", 9, ["A", "B"]),
            ("A=,B=2", "HLS-attribute-syntax", 6, ["A", "B"]),
            ("A=x\"y", "HLS-attribute-syntax", 7, ["A"]),
        ])
    func errors(list: String, id: String, column: Int, names: [String]) throws {
        let result = parseAttributes(list)
        let issue = try #require(result.issues.first)
        #expect(issue.kind.id.rawValue == id)
        #expect(issue.column == column)
        #expect(result.list.names == names)
    }

    /// A quoted value left without its closing quote runs on until the next value's opening quote closes it:
    /// the finding is at the comma where the quote belongs, naming the attribute it ran into (the sixth
    /// newcomer trial read "expected ','" far to the right of the mistake); a value that only happens to hold
    /// a comma keeps the plain message.
    @Test("a quoted value left open is said where its quote belongs")
    func quoteLeftOpen() throws {
        let open = parseAttributes(
            #"METHOD=SAMPLE-AES,URI="skd://lic/fps?cid=s01,KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#)
        let issue = try #require(open.issues.first)
        #expect(issue.column == 48, "\(issue.message)")  // (the list follows a three-byte tag in these tests)
        #expect(issue.message == "the quoted value of URI runs on into KEYFORMAT=: a closing '\"' is missing before this comma")
        let other = parseAttributes(#"A="x,y"z,B=2"#)
        #expect(other.issues.first?.message == "expected ',' after the value of A")
    }

    @Test("a comma inside quotes belongs to the value")
    func commaInQuotes() throws {
        let result = parseAttributes(#"CODECS="a,b",X-Y="1,2,3""#)
        #expect(result.issues.isEmpty)
        #expect(result.list["X-Y"]?.text == "1,2,3")
    }
}
