import SKDTemplate
import Testing

/// FPS-uri-empty over URI shapes (``LicenseURL/emptiness(of:)-(String)``, which validate, apply and render ask):
/// nothing after the scheme (slashes aside) but empty values, or a title parameter without a value, in any
/// letter case, against URIs that name something (a key id in a query, a path that names the title).
@Suite("validate: a FairPlay URI that names no key")
struct FairPlayURIEmptyTests {
    @Test("empty shapes are refused, named ones kept")
    func shapes() {
        let empty = [
            "skd:", "skd:/", "skd://", "skd:///", "skd://?", "skd://#x", "skd://?cid=", "skd://?x=", "skd://lic.example.com/fps?cid=",
            "SKD://lic/fps?CID=", "skd://lic/fps?a=1&content_id=&b=2", "skd://lic/fps?cid=a&assetId=", "skd://lic/fps?cid",
        ]
        let named = [
            "skd://movie-a", "skd://?cid=x", "skd://?kid=0123", "skd://?x=1", "skd://lic.example.com/fps?cid=t-7", "skd:movie",
            "skd://lic/fps?x=", "skd://lic/fps#cid=", "skd://host/t-7?asset=", "https://lic/fps?cid=",
        ]
        for uri in empty { #expect(LicenseURL.emptiness(of: uri) != nil, "\(uri)") }
        for uri in named { #expect(LicenseURL.emptiness(of: uri) == nil, "\(uri)") }
    }

    /// The one reading of a query's parameters: names and values as written, a parameter without `=` an
    /// empty value, nothing after a fragment.
    @Test("query parameters as written")
    func queryParameters() {
        func parameters(_ uri: String) -> [String] {
            var found: [String] = []
            Array(uri.utf8).withUnsafeBufferPointer { bytes in
                LicenseURL.forEachQueryParameter(of: bytes) { name, value in
                    found.append(String(decoding: name, as: UTF8.self) + "|" + String(decoding: value, as: UTF8.self))
                }
            }
            return found
        }
        #expect(parameters("skd://lic/fps?cid=a&kid=b=c&x&=y#z=1") == ["cid|a", "kid|b=c", "x|", "|y"])
        #expect(parameters("skd://lic/fps#?cid=a").isEmpty)
        #expect(parameters("skd://lic/fps?").isEmpty)
    }
}
