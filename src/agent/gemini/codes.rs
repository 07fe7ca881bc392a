//! The diagnostic codes Gemini raises (doctor findings and generation warnings), declared
//! here in its folder; [`crate::diag::Code::Agent`] carries them, and the
//! registry test holds every code of every agent unique.

crate::diag::agent_codes! {
    /// Bash allow rules, skipped for Gemini CLI.
    BASH_ALLOW_SKIPPED = "gemini-bash-allow-skipped";
    /// Gemini CLI matches bash rules against the command's text.
    COMMAND_TEXT = "gemini-command-text", limit;
    /// Bash rules joining commands, which Gemini CLI matches only as their exact start.
    COMPOUND_RULE = "gemini-compound-rule";
    /// Bash rules holding quotes, which Gemini CLI matches only in their own spelling.
    QUOTED_RULE = "gemini-quoted-rule";
    /// Paths under another user's home, skipped for Gemini CLI.
    OTHER_USER_PATH = "gemini-other-user-path";
    /// Gemini CLI matches path rules against the path as the model spells it.
    PATH_SPELLING = "gemini-path-spelling", limit;
    /// Relative paths, denied in every directory for Gemini CLI.
    RELATIVE_PATH = "gemini-relative-path";
    /// deniedDomains entries Gemini CLI rules cannot match, skipped.
    DOMAIN_SKIPPED = "gemini-domain-skipped";
    /// Gemini CLI's domain deny rules cover only web_fetch.
    FETCH_ONLY = "gemini-fetch-only", limit;
    /// allowedDomains entries, which Gemini CLI rules cannot enforce.
    ALLOWED_DOMAINS = "gemini-allowed-domains";
    /// A Gemini policy file outside the directory Gemini CLI reads by default.
    POLICY_ELSEWHERE = "gemini-policy-elsewhere";
    /// Full and yolo Gemini policy files in one directory, both loaded.
    BOTH_LOADED = "gemini-both-loaded";
    /// Gemini CLI starts no sandbox: its rules only decide which tool calls run.
    NO_SANDBOX = "gemini-no-sandbox", limit;
}
