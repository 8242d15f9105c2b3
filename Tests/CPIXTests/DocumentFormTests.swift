import CPIX
import Testing

/// What a CPIX document may look like on the wire: any prefix, UTF-16, entities that must not be expanded.
@Suite struct DocumentFormTests {
    static let kid = "6c5f5206-7d98-4808-84d8-94f132c1e9fe"

    @Test(arguments: [
        #"<c:CPIX xmlns:c="urn:dashif:org:cpix" contentId="a"><c:ContentKeyList><c:ContentKey kid="KID"/></c:ContentKeyList></c:CPIX>"#,
        #"<CPIX xmlns="urn:dashif:org:cpix" contentId="a"><ContentKeyList><ContentKey kid="KID"/></ContentKeyList></CPIX>"#,
        #"<x:CPIX xmlns:x="urn:dashif:org:cpix" xmlns:cpix="urn:other" contentId="a"><x:ContentKeyList><x:ContentKey kid="KID"/><cpix:ContentKey kid="00000000-0000-0000-0000-000000000000"/></x:ContentKeyList></x:CPIX>"#,
    ])
    func namespacesAreMatchedByURINeverByPrefix(_ xml: String) throws {
        let document = try CPIXReader.parse(Array(xml.replacingOccurrences(of: "KID", with: Self.kid).utf8), path: "a.xml")
        #expect(document.keys.map(\.kid.uuid) == [Self.kid])
        #expect(document.contentID == "a")
    }

    @Test func aDocumentWithoutANamespaceIsReadAsCPIXWithANote() throws {
        let xml = #"<CPIX contentId="a" version="2.3.1"><ContentKeyList><ContentKey kid="\#(Self.kid)"/></ContentKeyList></CPIX>"#
        let document = try CPIXReader.parse(Array(xml.utf8), path: "a.xml")
        #expect(document.keys.count == 1)
        #expect(document.version == "2.3.1")
        #expect(document.notes.first?.message.contains("no namespace") == true)
    }

    @Test func aCPIXElementInAnotherNamespaceIsRefused() {
        let xml = #"<cpix:CPIX xmlns:cpix="urn:not:cpix"/>"#
        #expect(throws: CPIXError.self) { try CPIXReader.parse(Array(xml.utf8), path: "a.xml") }
    }

    @Test func utf16DocumentsAreRead() throws {
        let xml =
            #"<?xml version="1.0" encoding="UTF-16"?><CPIX xmlns="urn:dashif:org:cpix" contentId="é"><ContentKeyList><ContentKey kid="\#(Self.kid)"/></ContentKeyList></CPIX>"#
        let bytes: [UInt8] = [0xFF, 0xFE] + xml.utf16.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
        let document = try CPIXReader.parse(bytes, path: "utf16.xml")
        #expect(document.contentID == "é")
        #expect(document.keys.count == 1)
    }

    @Test func entitiesAreNeitherLoadedNorExpanded() throws {
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE CPIX [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
            <CPIX xmlns="urn:dashif:org:cpix" contentId="x&secret;"><ContentKeyList><ContentKey kid="\(Self.kid)"/></ContentKeyList></CPIX>
            """
        let document = try? CPIXReader.parse(Array(xml.utf8), path: "xxe.xml")
        #expect(document?.contentID?.contains("root:") != true)
    }

    @Test func malformedXMLIsRefusedWithItsLine() {
        let xml = "<CPIX xmlns=\"urn:dashif:org:cpix\">\n<ContentKeyList>\n</CPIX>"
        do {
            _ = try CPIXReader.parse(Array(xml.utf8), path: "bad.xml")
            Issue.record("malformed XML was read")
        } catch {
            #expect(error.line == 3)
            #expect(error.description.hasPrefix("bad.xml:3:3: "))
        }
    }

    @Test func aSecondDRMSystemForTheSameSystemAndKeyIsRefusedWithItsLine() throws {
        let fairPlay = "94ce86fb-07ff-4f43-adb8-93d2fa968ca2"
        let widevine = "edef8ba9-79d6-4ace-a3c8-27dcd51d21ed"
        let other = "00000000-0000-0000-0000-000000000001"
        func document(_ systems: [(system: String, kid: String)]) -> [UInt8] {
            let list = systems.map { #"<DRMSystem systemId="\#($0.system)" kid="\#($0.kid)"/>"# }.joined(separator: "\n")
            return Array(
                """
                <CPIX xmlns="urn:dashif:org:cpix"><ContentKeyList><ContentKey kid="\(Self.kid)"/><ContentKey kid="\(other)"/></ContentKeyList>
                <DRMSystemList>
                \(list)
                </DRMSystemList></CPIX>
                """.utf8)
        }
        // One system for two keys, two systems for one key: each pair once.
        let read = try CPIXReader.parse(
            document([(fairPlay, Self.kid), (widevine, Self.kid), (fairPlay, other)]), path: "ok.xml")
        #expect(read.drmSystems.count == 3)
        do {
            _ = try CPIXReader.parse(document([(fairPlay, Self.kid), (widevine, Self.kid), (fairPlay, Self.kid)]), path: "twice.xml")
            Issue.record("a second DRMSystem for the same system and key was read")
        } catch {
            #expect(error.line == 5)
            #expect(error.reason.contains("a second DRMSystem for system \(fairPlay) and kid \(Self.kid)"))
        }
    }

    @Test func keyValuesAreNotKept() throws {
        let xml = """
            <CPIX xmlns="urn:dashif:org:cpix" xmlns:pskc="urn:ietf:params:xml:ns:keyprov:pskc"><ContentKeyList>
            <ContentKey kid="\(Self.kid)"><Data><pskc:Secret><pskc:PlainValue>s/zSNTG4TR2jY04srqSqFQ==</pskc:PlainValue></pskc:Secret></Data></ContentKey>
            </ContentKeyList></CPIX>
            """
        let document = try CPIXReader.parse(Array(xml.utf8), path: "k.xml")
        #expect(!String(describing: document).contains("s/zSNTG4TR2jY04srqSqFQ=="))
    }
}

/// A value that holds a line break (a character reference) cannot start a line of its own in a message.
@Test func controlCharactersInAValueAreEscapedInTheMessage() {
    let xml = #"<CPIX xmlns="urn:dashif:org:cpix"><ContentKeyList><ContentKey kid="x&#10;error: forged"/></ContentKeyList></CPIX>"#
    do {
        _ = try CPIXReader.parse(Array(xml.utf8), path: "a.xml")
        Issue.record("a kid that is not a UUID was read")
    } catch {
        #expect(!error.description.contains("\n"))
        #expect(error.description.contains(#"x\u{a}error: forged"#))
    }
}
