import ArgumentParser
import SKDFiles
import SKDKeys
import SKDPack
import SKDTemplate

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Print the URI a template makes for given variables, and its https license URL.",
        discussion: """
            The first line is the skd: URI, the second the https URL a player's resource loader derives from \
            it (or a note that the URI names no server). The built-ins come from --playlist, --key-index, \
            --kid (32 hex digits or a UUID) and --old-uri, as apply would set them. Exit 1 if the template makes \
            no URI with these values (one missing, or refused by its pattern), 2 for a mistake in the command \
            (a variable the template does not have, a malformed --kid).

            Examples:
              skdpack render --template entitlement \\
                  --var entitlement_url=https://lic.example.com/fps --var content_id=42
              skdpack render --template 'skd://{title_dir}/{key_index}' --key-index 3 \\
                  --playlist examples/library/multi-drm-title/video-720p.m3u8
            """)

    @OptionGroup var templateOptions: TemplateOptions

    @Option(help: ArgumentHelp("The playlist path the built-ins playlist, playlist_stem and title_dir come from.", valueName: "PATH"))
    var playlist: String = "playlist.m3u8"

    @Option(help: "The key period index (built-in key_index).")
    var keyIndex = 0

    @Option(help: ArgumentHelp("The KEYID of the key period (built-in kid), 32 hex digits.", valueName: "HEX"))
    var kid: String?

    @Option(help: ArgumentHelp("The existing key URI (built-in old_uri, and what --match reads).", valueName: "URI"))
    var oldURI: String?

    @Flag(help: "Print the values of secret variables (a token) as they are; they show as REDACTED otherwise.")
    var showSecrets = false

    func run() throws {
        var request = RenderRequest(template: templateOptions.template)
        (request.values, request.playlist, request.keyIndex) = (templateOptions.values, playlist, keyIndex)
        (request.kid, request.oldURI, request.showsSecrets) = (kid, oldURI, showSecrets)
        var outcome: RenderOutcome?
        try reportingUsage { outcome = try Planner.render(request, names: .commandLine) }
        switch outcome! {
        case .rendered(let rendering):
            try StandardStreams.output(rendering.redaction.redacted(rendering.uri + "\n"))
            try LicenseReport.print(
                for: rendering.uri, command: "render", allowHosts: rendering.allowHosts, hostsOrigin: "the template's allow_hosts",
                redaction: rendering.redaction)
        case .unrendered(let message, let redaction):
            StandardStreams.error(redaction.redacted("skdpack render: \(message)\n"))
            throw ExitStatus.findings
        }
    }
}

struct ResolveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Print the https license URL a player derives from an skd: URI.",
        discussion: """
            A player's resource loader puts https in place of skd (Adobe's TVSDK FairPlay guide). Exit 1 if \
            the URI is not an skd:// URI or the host is not in --allow-host.

            Examples:
              skdpack resolve 'skd://lic.example.com/fps?cid=42'
              skdpack resolve --allow-host lic.example.com \\
                  "$(grep -om1 'skd://[^"]*' examples/library/crlf-title/index.m3u8)"
            """)

    @Argument(help: "The skd: URI.")
    var uri: String

    @Option(name: .customLong("allow-host"), help: "A host the license URL may point at (repeatable; *.example.com for subdomains).")
    var allowHosts: [String] = []

    @Flag(help: "Print a token the URI holds (an ExpressPlay token) as it is; it shows as REDACTED otherwise.")
    var showSecrets = false

    func run() throws {
        // A token goes into playlists and nowhere else: not into a CI log that resolves a playlist's URI.
        let redaction = showSecrets ? .showingSecrets : KeyURISecrets.redaction(of: [uri])
        try LicenseReport.print(for: uri, command: "resolve", allowHosts: allowHosts, hostsOrigin: "--allow-host", redaction: redaction)
    }
}

/// The https license URL of a key URI on standard output, or why there is none on standard error; exit 1
/// when it is not an skd:// URI or its host is not allowed.
enum LicenseReport {
    static func print(
        for uri: String, command: String, allowHosts: [String], hostsOrigin: String, redaction: Redaction = .none
    ) throws {
        if let empty = LicenseURL.emptiness(of: uri) {
            StandardStreams.error(redaction.redacted("skdpack \(command): \(uri): \(empty)\n"))
            throw ExitStatus.findings
        }
        switch LicenseURL.derive(fromKeyURI: uri) {
        case .url(let url, let host):
            // A URL that must not be used is not printed: a script that reads standard output gets nothing.
            guard LicenseURL.isAllowed(host: host, by: allowHosts) else {
                StandardStreams.error(
                    redaction.redacted(
                        "skdpack \(command): the license host \(host) is not allowed by \(hostsOrigin) "
                            + "(\(allowHosts.joined(separator: ", "))): a player would send its license requests there; no URL is printed\n"
                    ))
                throw ExitStatus.findings
            }
            try StandardStreams.output(redaction.redacted(url + "\n"))
        case .identifier(let identifier):
            StandardStreams.error(
                redaction.redacted(
                    "skdpack \(command): \(uri) carries the identifier \(identifier), not a license server: "
                        + "the player app must know the server\n"))
        case .notKeyURI(let reason):
            StandardStreams.error(redaction.redacted("skdpack \(command): \(uri): \(reason)\n"))
            throw ExitStatus.findings
        }
    }
}
