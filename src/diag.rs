//! One diagnostic for everything twsrt reports about a policy or a launch
//! that is not the command's output: doctor's findings, audit's findings,
//! the warnings raised while compiling for an agent. Each has a [`Code`]
//! (a stable, kebab-case name that scripts and `--json` rely on), a
//! [`Severity`], the place it is about, a message and notes.

use std::fmt;

/// Report order is severity order: errors first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The policy is not in force, or cannot be.
    Error,
    /// The policy is weaker than written, or likely not what was meant.
    Warning,
    /// Worth knowing.
    Info,
}

impl Severity {
    /// `error`, `warning`, `info`: the word reports print.
    pub fn label(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// Declares [`Code`]: each variant with its stable name and what it means,
/// and [`Code::Agent`] for the codes each agent declares in its folder.
macro_rules! codes {
    ($($variant:ident = $name:literal, $doc:literal;)*) => {
        /// Every diagnostic code twsrt has: the ones no agent owns, one
        /// variant each, and an agent's own codes ([`agent_codes!`]).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code {
            $(#[doc = $doc] $variant,)*
            /// A code an agent declares in its own folder.
            Agent(&'static AgentCode),
        }

        impl Code {
            /// Every code no agent owns, in declaration order (an agent's
            /// own codes are its `codes::ALL`, [`crate::agent::Agent::codes`]).
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The stable name (`subsumed-rule`).
            pub fn name(self) -> &'static str {
                match self {
                    $(Code::$variant => $name,)*
                    Code::Agent(code) => code.name,
                }
            }
        }
    };
}

/// A code an agent declares in its folder with [`agent_codes!`]: its stable
/// name starts with the agent's (`codex-glob-walk`).
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AgentCode {
    pub name: &'static str,
    /// A measured agent limit ([`Code::is_agent_limit`]).
    pub limit: bool,
}

/// Declares an agent's codes, each a `pub const NAME: Code` with its doc
/// comment and stable name, `, limit` after a measured agent limit; and
/// `pub const ALL: &[Code]`, every one of them in order.
macro_rules! agent_codes {
    (@limit) => { false };
    (@limit limit) => { true };
    ($($(#[doc = $doc:literal])* $konst:ident = $name:literal $(, $limit:ident)?;)*) => {
        $(
            $(#[doc = $doc])*
            pub const $konst: $crate::diag::Code = {
                const CODE: $crate::diag::AgentCode = $crate::diag::AgentCode {
                    name: $name,
                    limit: $crate::diag::agent_codes!(@limit $($limit)?),
                };
                $crate::diag::Code::Agent(&CODE)
            };
        )*
        /// Every code of this agent, in declaration order.
        pub const ALL: &[$crate::diag::Code] = &[$($konst,)*];
    };
}
pub(crate) use agent_codes;

codes! {
    // doctor: the policy's fragments and profiles
    FragmentLoad = "fragment-load", "A registered fragment cannot be read or parsed.";
    ProfileCompile = "profile-compile", "A profile does not compile.";
    ProfileIncomplete = "profile-incomplete", "A profile selects no fragment of some source kind, even with its ancestors.";
    RedundantExtends = "redundant-extends", "A parent in `extends` is already an ancestor through another parent.";
    InheritedFragment = "inherited-fragment", "A profile selects a fragment an ancestor already selects.";
    UnusedFragment = "unused-fragment", "A registered fragment no profile selects.";
    DuplicateRule = "duplicate-rule", "The same entry in one list of two or more fragments of a profile.";
    SubsumedRule = "subsumed-rule", "An entry another entry of the same list already covers.";
    UnknownSrtKey = "unknown-srt-key", "A key srt does not know and twsrt maps to no agent.";
    // doctor: how the platform reads the rules
    BroadAllowWrite = "broad-allow-write", "An allowWrite entry at or above `/`, home, `~/.config` or `~/Library`.";
    NarrowAllowGlob = "narrow-allow-glob", "A `*` in an allow path: exact matches on macOS, dropped on Linux.";
    NoopGlobSuffix = "noop-glob-suffix", "A trailing `/**`, which srt strips anyway.";
    CwdAnchoredGlob = "cwd-anchored-glob", "A `**/` path, anchored at the launch directory, not global.";
    LinuxDropsWriteGlob = "linux-drops-write-glob", "A `*` in a write deny, which srt drops on Linux.";
    SymlinkedDenyPath = "symlinked-deny-path", "A deny path through a symlink whose real path is not listed.";
    PathOtherSpelling = "path-other-spelling", "A path that exists only in another letter case or Unicode normalisation.";
    WildcardApex = "wildcard-apex", "An allowed `*.domain` without the domain itself.";
    WildcardDenyApex = "wildcard-deny-apex", "A denied `*.domain` that leaves the domain itself open.";
    SrtKeySkipped = "srt-key-skipped", "srt credentials, strictAllowlist, deniedDomainReasons or allowRead settings an agent has no counterpart for.";
    // doctor and generate: how the agents read the rules
    ManagedHomeExpanded = "managed-home-expanded", "`~` paths in a managed file, written under the home of the user who built it.";
    ManagedFileIgnored = "managed-file-ignored", "An installed managed policy file the agent skips (its owner or mode is not the one the agent requires).";
    PrefixSpellings = "prefix-spellings", "A bash deny rule the agents match as a prefix: other spellings of the command pass it.";
    // audit: launch findings
    YoloFlag = "yolo-flag", "The launch runs every command without the sandbox and without asking.";
    SandboxReplaced = "sandbox-replaced", "The launch selects the agent's own sandbox mode in place of the generated profile.";
    ProfileReplaced = "profile-replaced", "The launch selects or overrides the permission profile twsrt generates.";
    SandboxOff = "sandbox-off", "A settings layer switches the sandbox off.";
    SandboxEscape = "sandbox-escape", "A settings layer lets a command ask to run outside the sandbox.";
    AgentSandbox = "agent-sandbox", "The agent starts a sandbox of its own, which decides whether the policy file loads.";
    PolicySkipped = "policy-skipped", "The launch does not load the files where twsrt writes the policy.";
    TargetNotLoaded = "target-not-loaded", "twsrt's policy file is not the one the agent loads.";
    LayerOverride = "layer-override", "A config layer the launch loads overrides the generated policy.";
    ConfigProfile = "config-profile", "The launch selects a config layer twsrt did not write.";
    HookSkipped = "hook-skipped", "The launch switches off the guard hook twsrt installs.";
    ApprovalMode = "approval-mode", "The launch changes when the agent asks before it acts.";
    AllowAll = "allow-all", "The launch allows everything the deny rules do not name.";
    AllowRules = "allow-rules", "The launch adds allow rules or tools that run without asking.";
    OutrankingRules = "outranking-rules", "Allow rules the launch loads can win over twsrt's rules.";
    MissingDenyFlags = "missing-deny-flags", "The launch lacks deny flags the policy generates.";
    ForeignCode = "foreign-code", "The launch loads code (MCP servers, plugins, hooks, extensions) the policy never saw.";
    ExtraDirectory = "extra-directory", "The launch gives the tools a directory the policy does not name.";
    WideDirectory = "wide-directory", "A settings layer puts the root or the home directory in the tools' reach.";
    FolderTrust = "folder-trust", "The launch trusts a folder, so its own config layers load.";
}

impl Code {
    /// Whether a generation warning with this code is a measured agent
    /// limit: true on every run whatever the policy holds (how the agent
    /// reads its files, what it leaves unguarded). `generate` and `diff`
    /// print those only with `-v`, and doctor lists them; every other
    /// generation warning (an entry the agent cannot express, a rule
    /// dropped, and every warning 3.3.3 prints) is always printed.
    pub fn is_agent_limit(self) -> bool {
        matches!(self, Code::Agent(code) if code.limit)
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A line and column (from 1) in a file the user can open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub line: usize,
    pub column: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    /// What it is about: a fragment as shown, `profile 'x'`, a file path,
    /// or a flag as typed (its value redacted).
    pub location: String,
    /// Where in `location`, when it is a file with positions.
    pub span: Option<Span>,
    pub message: String,
    /// The entries it is about, or further explanation: one line each.
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub fn new(
        severity: Severity,
        code: Code,
        location: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            code,
            severity,
            location: location.into(),
            span: None,
            message: message.into(),
            notes: Vec::new(),
        }
    }

    pub fn with_notes(mut self, notes: Vec<String>) -> Self {
        self.notes = notes;
        self
    }

    pub fn at(mut self, span: Span) -> Self {
        self.span = Some(span);
        self
    }
}

/// The generation warnings on stderr in the order raised, each as
/// `Warning: MESSAGE`: the agent limits
/// ([`Code::is_agent_limit`]) only with `-v`, the others
/// always (`-q` drops them all).
pub fn print_warnings(warnings: &[Diagnostic]) {
    for w in shown_warnings(warnings, crate::ui::verbose()) {
        crate::ui::warning(&w.message);
    }
}

/// The warnings [`print_warnings`] prints, with `-v` or without.
pub fn shown_warnings(warnings: &[Diagnostic], verbose: bool) -> impl Iterator<Item = &Diagnostic> {
    warnings
        .iter()
        .filter(move |w| verbose || !w.code.is_agent_limit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_has_its_own_kebab_case_name() {
        let mut names: Vec<&str> = Code::ALL.iter().map(|c| c.name()).collect();
        assert!(names.iter().all(|n| {
            !n.is_empty()
                && n.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                && !n.starts_with('-')
                && !n.ends_with('-')
        }));
        let count = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), count, "two codes share a name");
    }
}
