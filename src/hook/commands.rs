//! The commands the guard knows, as data: which words of each are paths it
//! reads or writes. A command not listed here opens no file the hook can
//! name; see the omissions at the end.
//!
//! Options are listed when they take a value (so the value is not taken for
//! an operand) or when they change what the operands mean. A short option
//! is spelled `-x`, a long one `--name`; a value may follow in the same word
//! (`-n5`, `--lines=5`) or as the next word.

/// What the positional operands of a command are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Every operand is read.
    Read,
    /// The first operand is a pattern or script (unless an option gave one);
    /// the rest are read.
    PatternRead,
    /// Every operand is written.
    Write,
    /// The first operand is read, the second (if any) written.
    InOut,
    /// The last operand is written; the others are read (`-t DIR` names the
    /// destination instead).
    Copy,
    /// As [`Shape::Copy`], and the sources are written too (they go away).
    Move,
    /// The last of two or more operands is written (the link made).
    Link,
    /// The operands before the first primary are walked (default `.`).
    Find,
    /// Operands are URLs; only option values name files.
    Curl,
    /// `-c` reads the operands into the `-f` archive; otherwise the archive
    /// is read and the extraction (`-C` or `.`) written.
    Tar,
    /// The first operand is the archive written, the others read.
    Zip,
    /// Every operand is read and replaced (unless written to stdout).
    Compress,
    /// `if=FILE` is read, `of=FILE` written.
    Dd,
    /// The first operand is a mode or owner, the others written.
    ModeWrite,
}

/// What an option does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opt {
    /// Takes a value that is no file.
    Value,
    /// Takes a value that is a file read.
    ReadsValue,
    /// Takes a value that is a file written.
    WritesValue,
    /// Supplies the pattern/script, so the first operand is a file.
    Pattern,
    /// Names a file holding the pattern/script: read, and no pattern operand.
    PatternFile,
    /// The destination directory (cp/mv/ln/install `-t`).
    Target,
    /// Takes two values that are no files (jq `--arg name value`).
    TwoValues,
    /// Takes a name, then a file read (jq `--slurpfile name file`).
    NameThenFile,
    /// Value whose `@file` form (curl `-d @f`, `-F k=@f`) is read.
    AtFile,
    /// Makes the walk recursive.
    Recursive,
    /// Makes the operands written as well as read (`sed -i`); the rest of a
    /// short cluster is its optional suffix.
    InPlace,
    /// Writes to stdout instead of replacing the operands.
    Stdout,
    /// tar: create an archive.
    Create,
    /// tar: extract an archive.
    Extract,
    /// Every later word is an argument, not a file (jq `--args`).
    EndOfFiles,
    /// cp: link the sources instead of copying them (`-l`, `-s`).
    Links,
}

pub struct Spec {
    pub names: &'static [&'static str],
    pub shape: Shape,
    /// Walks its operands (and `.` without one) whatever the flags say.
    pub always_recursive: bool,
    /// Without an operand it reads the working directory (ls, du, find).
    pub lists_cwd: bool,
    pub opts: &'static [(&'static str, Opt)],
}

use Opt::*;
use Shape::*;

const fn spec(
    names: &'static [&'static str],
    shape: Shape,
    opts: &'static [(&'static str, Opt)],
) -> Spec {
    Spec {
        names,
        shape,
        always_recursive: false,
        lists_cwd: false,
        opts,
    }
}

const fn walker(
    names: &'static [&'static str],
    shape: Shape,
    opts: &'static [(&'static str, Opt)],
) -> Spec {
    Spec {
        names,
        shape,
        always_recursive: true,
        lists_cwd: true,
        opts,
    }
}

const GREP: &[(&str, Opt)] = &[
    ("-e", Pattern), ("--regexp", Pattern), ("-f", PatternFile), ("--file", PatternFile),
    ("-A", Value), ("-B", Value), ("-C", Value), ("-m", Value), ("-d", Value), ("-D", Value),
    ("--after-context", Value), ("--before-context", Value), ("--context", Value),
    ("--max-count", Value), ("--include", Value), ("--exclude", Value), ("--exclude-dir", Value),
    ("--exclude-from", ReadsValue), ("--label", Value), ("-r", Recursive), ("-R", Recursive),
    ("--recursive", Recursive), ("--dereference-recursive", Recursive),
];

const RG: &[(&str, Opt)] = &[
    ("-e", Pattern), ("--regexp", Pattern), ("-f", PatternFile), ("--file", PatternFile),
    ("-g", Value), ("--glob", Value), ("--iglob", Value), ("-t", Value), ("--type", Value),
    ("-T", Value), ("--type-not", Value), ("-A", Value), ("-B", Value), ("-C", Value),
    ("-m", Value), ("--max-count", Value), ("-j", Value), ("--threads", Value), ("-M", Value),
    ("--max-columns", Value), ("-d", Value), ("--max-depth", Value), ("-E", Value),
    ("--encoding", Value), ("-r", Value), ("--replace", Value), ("--type-add", Value),
    ("--ignore-file", ReadsValue), ("--pre", Value), ("--sort", Value), ("--sortr", Value),
    ("--color", Value), ("--colors", Value),
];

const AG: &[(&str, Opt)] = &[
    ("-G", Value), ("--file-search-regex", Value), ("-A", Value), ("-B", Value), ("-C", Value),
    ("-m", Value), ("--max-count", Value), ("--ignore", Value), ("-p", ReadsValue),
    ("--path-to-ignore", ReadsValue), ("--depth", Value),
];

const SED: &[(&str, Opt)] = &[
    ("-e", Pattern), ("--expression", Pattern), ("-f", PatternFile), ("--file", PatternFile),
    ("-l", Value), ("--line-length", Value), ("-i", InPlace), ("--in-place", InPlace),
];

const AWK: &[(&str, Opt)] = &[
    ("-f", PatternFile), ("--file", PatternFile), ("-v", Value), ("--assign", Value),
    ("-F", Value), ("--field-separator", Value), ("-i", ReadsValue), ("--include", ReadsValue),
];

const JQ: &[(&str, Opt)] = &[
    ("-f", PatternFile), ("--from-file", PatternFile), ("--arg", TwoValues),
    ("--argjson", TwoValues), ("--slurpfile", NameThenFile), ("--rawfile", NameThenFile),
    ("--indent", Value), ("-L", Value), ("--args", EndOfFiles), ("--jsonargs", EndOfFiles),
];

const YQ: &[(&str, Opt)] = &[
    ("-I", Value), ("--indent", Value), ("-p", Value), ("--input-format", Value), ("-o", Value),
    ("--output-format", Value), ("--from-file", PatternFile), ("-i", InPlace),
    ("--inplace", InPlace),
];

const HEAD: &[(&str, Opt)] = &[
    ("-n", Value), ("--lines", Value), ("-c", Value), ("--bytes", Value),
];

const TAIL: &[(&str, Opt)] = &[
    ("-n", Value), ("--lines", Value), ("-c", Value), ("--bytes", Value), ("-s", Value),
    ("--sleep-interval", Value), ("--pid", Value), ("--max-unchanged-stats", Value),
];

const SORT: &[(&str, Opt)] = &[
    ("-o", WritesValue), ("--output", WritesValue), ("-k", Value), ("--key", Value),
    ("-t", Value), ("--field-separator", Value), ("-S", Value), ("--buffer-size", Value),
    ("-T", Value), ("--temporary-directory", Value), ("--parallel", Value),
    ("--files0-from", ReadsValue), ("--batch-size", Value),
];

const CUT: &[(&str, Opt)] = &[
    ("-d", Value), ("--delimiter", Value), ("-f", Value), ("--fields", Value), ("-c", Value),
    ("--characters", Value), ("-b", Value), ("--bytes", Value), ("--output-delimiter", Value),
];

const UNIQ: &[(&str, Opt)] = &[
    ("-f", Value), ("--skip-fields", Value), ("-s", Value), ("--skip-chars", Value),
    ("-w", Value), ("--check-chars", Value),
];

const NL: &[(&str, Opt)] = &[
    ("-b", Value), ("-n", Value), ("-w", Value), ("-s", Value), ("-v", Value), ("-i", Value),
    ("-h", Value), ("-f", Value), ("-d", Value), ("-l", Value),
];

const OD: &[(&str, Opt)] = &[
    ("-A", Value), ("-j", Value), ("-N", Value), ("-t", Value), ("-w", Value), ("-S", Value),
    ("--address-radix", Value), ("--skip-bytes", Value), ("--read-bytes", Value),
    ("--format", Value), ("--width", Value), ("--strings", Value),
];

const XXD: &[(&str, Opt)] = &[
    ("-c", Value), ("-g", Value), ("-l", Value), ("-s", Value), ("-o", Value), ("-n", Value),
    ("-cols", Value), ("-len", Value), ("-seek", Value),
];

const HEXDUMP: &[(&str, Opt)] = &[
    ("-n", Value), ("-s", Value), ("-e", Value), ("-f", ReadsValue), ("-L", Value),
];

const STRINGS: &[(&str, Opt)] = &[
    ("-n", Value), ("--bytes", Value), ("-t", Value), ("--radix", Value), ("-e", Value),
    ("--encoding", Value), ("-T", Value), ("--target", Value), ("-s", Value),
];

const BASE64: &[(&str, Opt)] = &[("-w", Value), ("--wrap", Value)];

const FILE: &[(&str, Opt)] = &[
    ("-m", ReadsValue), ("--magic-file", ReadsValue), ("-f", ReadsValue),
    ("--files-from", ReadsValue), ("-F", Value), ("--separator", Value), ("-P", Value),
    ("-e", Value), ("--exclude", Value),
];

const DIFF: &[(&str, Opt)] = &[
    ("-r", Recursive), ("--recursive", Recursive), ("-U", Value), ("--unified", Value),
    ("-C", Value), ("--context", Value), ("-x", Value), ("--exclude", Value), ("-X", ReadsValue),
    ("--exclude-from", ReadsValue), ("-L", Value), ("--label", Value), ("-I", Value),
    ("--ignore-matching-lines", Value), ("-W", Value), ("--width", Value), ("-S", Value),
    ("--starting-file", Value), ("--from-file", ReadsValue), ("--to-file", ReadsValue),
];

const CMP: &[(&str, Opt)] = &[
    ("-i", Value), ("--ignore-initial", Value), ("-n", Value), ("--bytes", Value),
];

const WC: &[(&str, Opt)] = &[("--files0-from", ReadsValue)];

const LESS: &[(&str, Opt)] = &[
    ("-p", Value), ("--pattern", Value), ("-t", Value), ("--tag", Value), ("-x", Value),
    ("--tabs", Value), ("-b", Value), ("-h", Value), ("-y", Value), ("-z", Value),
    ("-o", WritesValue), ("-O", WritesValue), ("--log-file", WritesValue),
];

const LS: &[(&str, Opt)] = &[
    ("-R", Recursive), ("--recursive", Recursive), ("-I", Value), ("--ignore", Value),
    ("--hide", Value), ("-w", Value), ("--width", Value), ("-T", Value), ("--tabsize", Value),
    ("--block-size", Value), ("--format", Value), ("--sort", Value), ("--time", Value),
    ("--time-style", Value), ("--quoting-style", Value), ("--indicator-style", Value),
];

const TREE: &[(&str, Opt)] = &[
    ("-L", Value), ("-I", Value), ("-P", Value), ("-o", WritesValue), ("--filelimit", Value),
    ("--charset", Value), ("-H", Value), ("-T", Value), ("--sort", Value),
];

const DU: &[(&str, Opt)] = &[
    ("-d", Value), ("--max-depth", Value), ("-B", Value), ("--block-size", Value), ("-t", Value),
    ("--threshold", Value), ("--exclude", Value), ("-X", ReadsValue),
    ("--exclude-from", ReadsValue), ("--files0-from", ReadsValue), ("--time-style", Value),
];

const STAT: &[(&str, Opt)] = &[
    ("-c", Value), ("--format", Value), ("--printf", Value), ("-f", Value),
];

const TAR: &[(&str, Opt)] = &[
    ("-f", Target), ("--file", Target), ("-C", WritesValue), ("--directory", WritesValue),
    ("-c", Create), ("--create", Create), ("-r", Create), ("--append", Create), ("-u", Create),
    ("--update", Create), ("-x", Extract), ("--extract", Extract), ("--get", Extract),
    ("-T", ReadsValue), ("--files-from", ReadsValue), ("-X", ReadsValue),
    ("--exclude-from", ReadsValue), ("--exclude", Value), ("-b", Value),
    ("--blocking-factor", Value), ("-I", Value), ("--use-compress-program", Value), ("-H", Value),
    ("--format", Value), ("-V", Value), ("--label", Value), ("--transform", Value),
    ("--strip-components", Value), ("--owner", Value), ("--group", Value), ("--mode", Value),
    ("--mtime", Value), ("-N", Value), ("--newer", Value),
];

const ZIP: &[(&str, Opt)] = &[
    ("-r", Recursive), ("--recurse-paths", Recursive), ("-x", Value), ("--exclude", Value),
    ("-i", Value), ("--include", Value), ("-P", Value), ("--password", Value), ("-b", Value),
    ("-t", Value), ("-tt", Value), ("-n", Value), ("-Z", Value), ("-O", WritesValue),
    ("--output-file", WritesValue),
];

const COMPRESS: &[(&str, Opt)] = &[
    ("-c", Stdout), ("--stdout", Stdout), ("--to-stdout", Stdout), ("-t", Stdout),
    ("--test", Stdout), ("-l", Stdout), ("--list", Stdout), ("-S", Value), ("--suffix", Value),
    ("-r", Recursive), ("--recursive", Recursive), ("-T", Value), ("--threads", Value),
];

const COPY: &[(&str, Opt)] = &[
    ("-t", Target), ("--target-directory", Target), ("-S", Value), ("--suffix", Value),
    ("-r", Recursive), ("-R", Recursive), ("-a", Recursive), ("--recursive", Recursive),
    ("--archive", Recursive), ("-m", Value), ("--mode", Value), ("-o", Value), ("--owner", Value),
    ("-g", Value), ("--group", Value), ("--backup", Value), ("--reflink", Value),
    ("--sparse", Value), ("--preserve", Value), ("--no-preserve", Value),
    ("--strip-program", Value),
];

/// cp: [`COPY`] and the options that make links of the sources.
const CP: &[(&str, Opt)] = &[
    ("-t", Target), ("--target-directory", Target), ("-S", Value), ("--suffix", Value),
    ("-r", Recursive), ("-R", Recursive), ("-a", Recursive), ("--recursive", Recursive),
    ("--archive", Recursive), ("--backup", Value), ("--reflink", Value), ("--sparse", Value),
    ("--preserve", Value), ("--no-preserve", Value), ("-l", Links), ("--link", Links),
    ("-s", Links), ("--symbolic-link", Links),
];

const SCP: &[(&str, Opt)] = &[
    ("-r", Recursive), ("-P", Value), ("-p", Value), ("-i", Value), ("-F", ReadsValue),
    ("-o", Value), ("-l", Value), ("-c", Value), ("-J", Value), ("-S", Value), ("-D", Value),
    ("-X", Value),
];

const RSYNC: &[(&str, Opt)] = &[
    ("-r", Recursive), ("--recursive", Recursive), ("-a", Recursive), ("--archive", Recursive),
    ("-e", Value), ("--rsh", Value), ("--exclude", Value), ("--include", Value),
    ("--exclude-from", ReadsValue), ("--include-from", ReadsValue), ("--files-from", ReadsValue),
    ("-f", Value), ("--filter", Value), ("-T", Value), ("--temp-dir", Value),
    ("--partial-dir", Value), ("--log-file", WritesValue), ("--password-file", ReadsValue),
    ("-B", Value), ("--block-size", Value), ("--chmod", Value), ("--backup-dir", Value),
    ("--suffix", Value), ("--bwlimit", Value), ("--rsync-path", Value), ("--timeout", Value),
    ("--port", Value),
];

const CURL: &[(&str, Opt)] = &[
    ("-T", ReadsValue), ("--upload-file", ReadsValue), ("-d", AtFile), ("--data", AtFile),
    ("--data-binary", AtFile), ("--data-ascii", AtFile), ("--data-urlencode", AtFile),
    ("--json", AtFile), ("-F", AtFile), ("--form", AtFile), ("-H", AtFile), ("--header", AtFile),
    ("-K", ReadsValue), ("--config", ReadsValue), ("-o", WritesValue), ("--output", WritesValue),
    ("-D", WritesValue), ("--dump-header", WritesValue), ("-c", WritesValue),
    ("--cookie-jar", WritesValue), ("--trace", WritesValue), ("--trace-ascii", WritesValue),
    ("--stderr", WritesValue), ("-b", Value), ("--cookie", Value), ("--data-raw", Value),
    ("--form-string", Value), ("-X", Value), ("--request", Value), ("-u", Value),
    ("--user", Value), ("-A", Value), ("--user-agent", Value), ("-e", Value),
    ("--referer", Value), ("-m", Value), ("--max-time", Value), ("-w", Value),
    ("--write-out", Value), ("-r", Value), ("--range", Value), ("-x", Value), ("--proxy", Value),
    ("-E", Value), ("--cert", Value), ("--key", Value), ("--cacert", Value), ("-U", Value),
    ("-y", Value), ("-Y", Value), ("-z", Value), ("-C", Value), ("--url", Value),
    ("--connect-timeout", Value), ("--retry", Value), ("--resolve", Value),
    ("--limit-rate", Value), ("-Q", Value),
];

const TEE: &[(&str, Opt)] = &[("--output-error", Value)];

const TRUNCATE: &[(&str, Opt)] = &[
    ("-s", Value), ("--size", Value), ("-r", ReadsValue), ("--reference", ReadsValue),
    ("-o", Value),
];

const TOUCH: &[(&str, Opt)] = &[
    ("-d", Value), ("--date", Value), ("-t", Value), ("-r", ReadsValue),
    ("--reference", ReadsValue), ("--time", Value),
];

const RM: &[(&str, Opt)] = &[
    ("-r", Recursive), ("-R", Recursive), ("--recursive", Recursive), ("--interactive", Value),
];

const MKDIR: &[(&str, Opt)] = &[
    ("-m", Value), ("--mode", Value), ("-Z", Value), ("--context", Value),
];

const MODE: &[(&str, Opt)] = &[
    ("-R", Recursive), ("--recursive", Recursive), ("--reference", ReadsValue), ("--from", Value),
];

const LINK: &[(&str, Opt)] = &[
    ("-t", Target), ("--target-directory", Target), ("-S", Value), ("--suffix", Value),
];

/// The table. Names are matched after the path and quoting are removed
/// (`/usr/bin/cat`, `\cat` and `'cat'` are `cat`).
pub const COMMANDS: &[Spec] = &[
    spec(
        &[
            "cat", "tac", "more", "rev", "fold", "expand", "unexpand", "source", ".",
        ],
        Read,
        &[],
    ),
    spec(&["nl"], Read, NL),
    spec(&["less"], Read, LESS),
    spec(&["head"], Read, HEAD),
    spec(&["tail"], Read, TAIL),
    spec(&["wc"], Read, WC),
    spec(&["sort"], Read, SORT),
    spec(&["uniq"], InOut, UNIQ),
    spec(&["cut"], Read, CUT),
    spec(&["od"], Read, OD),
    spec(&["xxd"], InOut, XXD),
    spec(&["hexdump", "hd"], Read, HEXDUMP),
    spec(&["strings"], Read, STRINGS),
    spec(
        &[
            "base64",
            "base32",
            "md5sum",
            "sha1sum",
            "sha256sum",
            "sha512sum",
            "cksum",
        ],
        Read,
        BASE64,
    ),
    spec(&["file"], Read, FILE),
    spec(&["diff"], Read, DIFF),
    spec(&["cmp"], Read, CMP),
    spec(&["grep", "egrep", "fgrep"], PatternRead, GREP),
    walker(&["rg"], PatternRead, RG),
    walker(&["ag"], PatternRead, AG),
    spec(&["sed"], PatternRead, SED),
    spec(&["awk", "gawk", "mawk", "nawk"], PatternRead, AWK),
    spec(&["jq"], PatternRead, JQ),
    spec(&["yq"], PatternRead, YQ),
    walker(&["find"], Find, &[]),
    Spec {
        names: &["ls", "dir"],
        shape: Read,
        always_recursive: false,
        lists_cwd: true,
        opts: LS,
    },
    walker(&["tree"], Read, TREE),
    walker(&["du"], Read, DU),
    spec(&["stat"], Read, STAT),
    spec(&["tar"], Tar, TAR),
    spec(&["zip"], Zip, ZIP),
    spec(
        &["gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd"],
        Compress,
        COMPRESS,
    ),
    spec(&["zcat", "bzcat", "xzcat"], Read, &[]),
    spec(&["cp"], Copy, CP),
    spec(&["install"], Copy, COPY),
    spec(&["mv"], Move, COPY),
    spec(&["ln"], Link, LINK),
    spec(&["scp"], Copy, SCP),
    spec(&["rsync"], Copy, RSYNC),
    spec(&["curl"], Curl, CURL),
    spec(&["tee"], Write, TEE),
    spec(&["truncate"], Write, TRUNCATE),
    spec(&["touch"], Write, TOUCH),
    spec(&["rm", "shred", "unlink", "rmdir"], Write, RM),
    spec(&["mkdir"], Write, MKDIR),
    spec(&["chmod", "chown", "chgrp"], ModeWrite, MODE),
    spec(&["dd"], Dd, &[]),
];

// Omissions, each a decision:
// - Interpreters (`python -c`, `node -e`, `perl`, `ruby`) and compiled
//   binaries open files the text does not name; the hook cannot see them.
//   The sandbox and Claude's own rules are the layers for those.
// - Editors (`vi`, `nano`, `emacs`) are interactive; Claude's Bash tool
//   runs without a terminal.
// - `ssh`, `gpg`, `git`, `aws`, `kubectl` read their own credentials by
//   design; denying them by that would forbid the tools, not the leak.
//   `scp -i KEY` is such a use, so its value is not a read.
// - `unzip`, `cpio`, `7z`: archive tools beyond tar/zip/gzip are not
//   modelled; a read of a denied archive by them passes.
// - Wrappers (`sudo`, `env`, `nice`, `xargs`, ...) are looked through in
//   [`super::bash`], not listed here.

/// The entry for a command name.
pub fn lookup(name: &str) -> Option<&'static Spec> {
    COMMANDS.iter().find(|s| s.names.contains(&name))
}
