import SKDTemplate

extension Redaction {
    /// What is secret in a run, in one place (`apply`, `validate` and `render` alike): the values `given` for
    /// the run (`--var`, `--var-file`) of the template's secret variables; the values read from files (the
    /// names `fromFiles`) of ``BearerTokens/minimumLength`` characters or more, whatever the template says; any
    /// value given that is a bearer token; a token written out in the template itself
    /// (``KeyTemplate/literalSecrets(of:)``); and the key truth's (``KeyTruth/secrets``). A playlist adds its
    /// own as it is read (its old URIs' tokens, its catalogue row).
    public static func ofRun(
        template: TemplateDefinition?, given: [(name: String, value: String)], fromFiles: Set<String>, keyTruth: KeyTruth
    ) -> Redaction {
        let secretNames = template?.secretNames ?? []
        var secrets = keyTruth.secrets + (template.map { KeyTemplate.literalSecrets(of: $0.uri) } ?? [])
        for (name, value) in given {
            // (A value of a few characters read from a file, a content id 42, would hide every 42 of a diff.)
            if secretNames.contains(name) || (fromFiles.contains(name) && value.utf8.count >= BearerTokens.minimumLength) {
                secrets.append(Secret(value))
            }
            secrets += BearerTokens.secrets(in: value)
        }
        return Redaction(secrets: secrets)
    }
}
