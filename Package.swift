// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "skdpack",
    products: [
        .library(name: "HLS", targets: ["HLS"]),
        .library(name: "SKDPack", targets: ["SKDPack", "SKDTemplate", "SKDFiles", "SKDKeys", "SKDReportModel", "SKDValidation"]),
        .library(name: "MP4", targets: ["MP4"]),
        .library(name: "MPEGTS", targets: ["MPEGTS"]),
        .library(name: "CPIX", targets: ["CPIX"]),
        .library(name: "SKDReports", targets: ["SKDReports"]),
        .library(name: "SKDReportCheck", targets: ["SKDReportCheck"]),
        .executable(name: "skdpack", targets: ["skdpack"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
    ],
    targets: [
        // The M3U8 engine. Depends on nothing but the standard library, libc and CLineScan, so that it stays fast to
        // start, easy to fuzz, and usable by any Swift tool that needs byte-exact playlists.
        .target(name: "HLS", dependencies: ["CLineScan", "SKDBytes"]),
        // The byte-level helpers every module needs once: hex digits, the ASCII test of a buffer, system calls
        // retried on EINTR, a whole file read with a limit. Internal to the package (`package` access).
        .target(name: "SKDBytes"),
        // The engine's innermost loop, classifying a playlist's bytes 64 at a time with SSE2 (a portable
        // loop elsewhere): header-only C, inlined into HLS.
        .target(name: "CLineScan"),
        // Reading the protection of fMP4 init segments (ISO BMFF boxes, Common Encryption): knows nothing of
        // playlists or of FairPlay.
        .target(name: "MP4", dependencies: ["SKDBytes"]),
        // Reading MPEG-2 transport stream segments from their two ends (tables, timestamps, the first access
        // unit's NAL units and SPS, ADTS): knows nothing of playlists or of FairPlay.
        .target(name: "MPEGTS", dependencies: ["SKDBytes"]),
        // The template language: parse, check, render, escape, redact. Knows URIs, not playlists.
        .target(name: "SKDTemplate", dependencies: ["SKDBytes"]),
        // The library's file system: finding a package's playlists and the titles they make (with the tracks a
        // master says they carry), atomic files, title locks, shards, parallel runs in order; the settings a
        // message may name. Knows playlists' references, not keys or templates.
        .target(name: "SKDFiles", dependencies: ["HLS", "CPIX", "SKDBytes"]),
        // The FairPlay model: key tags and their URIs' templates (and reading them backwards), the variables and
        // where their values come from, the keys the media and the CPIX documents say are used, a title's key
        // map, and the secrets among them. What apply and validate both judge by; knows no run.
        .target(name: "SKDKeys", dependencies: ["HLS", "SKDTemplate", "MP4", "MPEGTS", "CPIX", "SKDBytes", "SKDFiles"]),
        // The report model: what one run of apply or validate did, as data (playlists, changes, findings,
        // measures, key periods), the one content behind every report format. The runs fill it; the writers
        // read it; it judges nothing.
        .target(name: "SKDReportModel", dependencies: ["HLS", "SKDBytes", "SKDTemplate"]),
        // Validation: the reader's findings, one registry of playlist rules and the package rules behind one
        // protocol, a title's key map checked, the media measured. Judges a package; writes nothing.
        .target(
            name: "SKDValidation",
            dependencies: ["HLS", "SKDTemplate", "MP4", "MPEGTS", "CPIX", "SKDBytes", "SKDFiles", "SKDKeys", "SKDReportModel"]),
        // The use cases: apply (the engine that writes keys), validate and report merge as runs over a
        // library, each filling the report model.
        .target(
            name: "SKDPack",
            dependencies: [
                "HLS", "SKDTemplate", "MP4", "MPEGTS", "CPIX", "SKDBytes", "SKDFiles", "SKDKeys", "SKDReportModel", "SKDValidation",
            ]),
        // Reading an XML document into elements (Expat, linked in: CPIX documents, XML reports), and
        // libxml2 opened at run time (dlopen) for the report writers.
        .target(name: "SKDXML", dependencies: ["CExpat"], linkerSettings: [.linkedLibrary(":libexpat.a")]),
        // Expat's header; the library is Debian's static libexpat.a, so the binary loads nothing to read XML.
        .systemLibrary(name: "CExpat", providers: [.apt(["libexpat1-dev"])]),
        // Reading DASH-IF CPIX documents: key ids, DRM signaling, key periods, usage rules; never key values.
        .target(name: "CPIX", dependencies: ["MP4", "SKDXML", "SKDBytes"]),
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // Report writers: JSON, XML and JUnit (libxml2's xmlTextWriter, opened when first used), SARIF, HTML;
        // the schemas, embedded in code. They read the report model and know no run.
        .target(
            name: "SKDReports",
            dependencies: ["HLS", "SKDFiles", "SKDReportModel", "SKDXML", "SKDBytes", "SKDTemplate"],
            resources: [
                .embedInCode("Schemas/skdpack-report.xsd"),
                .embedInCode("Schemas/skdpack-report.schema.json"),
            ]
        ),
        // Checking an XML report against the XSD with libxml2's validator: for the tests, and for tools that
        // receive reports. Not linked into skdpack, so that libxml2 and ICU are not loaded at its start-up.
        .target(name: "SKDReportCheck", dependencies: ["CLibXML2", "SKDXML"]),
        .executableTarget(
            name: "skdpack",
            dependencies: [
                "HLS",
                "SKDPack",
                "SKDFiles",
                "SKDKeys",
                "SKDReportModel",
                "SKDTemplate",
                "SKDValidation",
                "SKDReports",
                "SKDBytes",
                "MP4",
                "MPEGTS",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Locating the shared corpus and running the built binary, for every test target.
        .target(name: "SKDTestSupport", path: "Tests/SKDTestSupport"),
        .testTarget(name: "HLSTests", dependencies: ["HLS", "SKDTestSupport"]),
        .testTarget(name: "MP4Tests", dependencies: ["MP4", "SKDTestSupport"]),
        .testTarget(name: "MPEGTSTests", dependencies: ["MPEGTS", "SKDTestSupport"]),
        .testTarget(name: "CPIXTests", dependencies: ["CPIX", "MP4", "SKDTestSupport"]),
        .testTarget(name: "SKDTemplateTests", dependencies: ["SKDTemplate", "SKDTestSupport"], exclude: ["Oracle"]),
        .testTarget(name: "SKDFilesTests", dependencies: ["SKDFiles", "SKDTestSupport"]),
        .testTarget(
            name: "SKDPackTests",
            dependencies: [
                "HLS", "SKDPack", "SKDFiles", "SKDKeys", "SKDReportModel", "SKDTemplate", "SKDTestSupport", "SKDValidation",
            ]),
        .testTarget(
            name: "SKDReportsTests",
            dependencies: [
                "HLS", "SKDReports", "SKDReportCheck", "SKDPack", "SKDKeys", "SKDReportModel", "SKDTemplate", "SKDTestSupport",
                "SKDValidation",
            ],
            exclude: ["Golden"]
        ),
        // The XML reader (Expat) held to libxml2's reader on generated and real documents.
        .testTarget(name: "SKDXMLTests", dependencies: ["SKDXML", "CLibXML2", "SKDReportCheck", "SKDTestSupport"]),
        // Holds the function types SKDReports declares for dlsym to libxml2's headers: a mismatch fails the build.
        .testTarget(name: "LibXML2BindingTests", dependencies: ["SKDReports", "SKDXML", "CLibXML2"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "skdpack", "SKDPack", "SKDReportCheck", "SKDTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
