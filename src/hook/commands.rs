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
    /// unzip: the first operand is the archive read; the rest are members
    /// written below `-d` (or `.`).
    Unzip,
    /// wget: operands are URLs, each written as its name below `-P`.
    Wget,
    /// A program the table does not know: every word that names a
    /// protected path is asked about (the named-path rule).
    Opaque,
    /// Opens none of its words (`echo`, `printf`, `test`).
    Inert,
    /// Operands are checked by name; option values name the files
    /// (`openssl base64 -in F`).
    Named,
    /// socat: each operand is an address; `FILE:`, `OPEN:`, `GOPEN:`,
    /// `CREATE:` name a file, `EXEC:` and `SYSTEM:` run a command.
    Socat,
    /// ssh: the operands are a host and a command run there; only option
    /// values are local.
    Remote,
}

/// What an option does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opt {
    /// Takes no value and changes nothing the hook looks at.
    Flag,
    /// Takes a value the grammar does not call a file; it is still checked
    /// by the named-path rule.
    Value,
    /// Takes a key or configuration the program uses for itself, not one
    /// it sends or prints (`scp -i KEY`).
    Credential,
    /// A file written, below the output directory if relative (curl `-o`,
    /// wget `-O`).
    Output,
    /// Where the program reads or writes (`tar -C`, `unzip -d`, `wget -P`,
    /// curl `--output-dir`).
    Directory,
    /// A URL, as an operand (curl `--url`).
    Url,
    /// Names each download after its URL (curl `-O`).
    RemoteName,
    /// The names written come from elsewhere (curl `-J`, tar `-P`).
    NamesUnknown,
    /// Every operand is written (`install -d`).
    AllWritten,
    /// A value only when glued on (`od -w8`, `--width=8`); alone, none.
    Optional,
    /// A file read that names more files, read in turn (`--files0-from`,
    /// `tar -T`): which ones the text cannot say.
    ReadsList,
    /// The operands name more files, read in turn (`md5sum -c`).
    OperandsList,
    /// grep `-d ACTION`: `recurse` walks the operands.
    DirectoriesAction,
    /// curl `-b`: a value without `=` is a cookie file, read and sent.
    CookieFile,
    /// The destination is the file or directory written, never a directory
    /// to put the sources in (`cp -T`, `ln -n` on a link to a directory).
    NoTargetDir,
    /// Each source keeps its whole path below the destination (`cp
    /// --parents`, `rsync -R`).
    Parents,
    /// Takes a command the program runs (`tar -I PROG`, `rsync -e CMD`,
    /// `tar --to-command=CMD`): walked like a `sh -c` string.
    Runs,
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
    /// The option list is the program's whole grammar (from its `--help`):
    /// an option not in it may take the next word as a file.
    pub complete: bool,
    pub opts: &'static [(&'static str, Opt)],
}

use Opt::*;
use Shape::*;

use super::grammars::{files::*, net::*, text::*};

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
        complete: false,
        opts,
    }
}

/// An entry whose option list is the program's whole grammar.
const fn grammar(
    names: &'static [&'static str],
    shape: Shape,
    opts: &'static [(&'static str, Opt)],
) -> Spec {
    Spec { complete: true, ..spec(names, shape, opts) }
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
        complete: false,
        opts,
    }
}

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

const FILE: &[(&str, Opt)] = &[
    ("-m", ReadsValue), ("--magic-file", ReadsValue), ("-f", ReadsValue),
    ("--files-from", ReadsValue), ("-F", Value), ("--separator", Value), ("-P", Value),
    ("-e", Value), ("--exclude", Value),
];

const LESS: &[(&str, Opt)] = &[
    ("-p", Value), ("--pattern", Value), ("-t", Value), ("--tag", Value), ("-x", Value),
    ("--tabs", Value), ("-b", Value), ("-h", Value), ("-y", Value), ("-z", Value),
    ("-o", WritesValue), ("-O", WritesValue), ("--log-file", WritesValue),
];

const TREE: &[(&str, Opt)] = &[
    ("-L", Value), ("-I", Value), ("-P", Value), ("-o", WritesValue), ("--filelimit", Value),
    ("--charset", Value), ("-H", Value), ("-T", Value), ("--sort", Value),
];

const ZIP: &[(&str, Opt)] = &[
    ("-r", Recursive), ("--recurse-paths", Recursive), ("-x", Value), ("--exclude", Value),
    ("-i", Value), ("--include", Value), ("-P", Value), ("--password", Value), ("-b", Value),
    ("-t", Value), ("-tt", Value), ("-n", Value), ("-Z", Value), ("-O", WritesValue),
    ("--output-file", WritesValue),
];

const UNZIP: &[(&str, Opt)] = &[
    ("-d", Directory), ("-x", EndOfFiles), ("-P", Value), ("-p", Stdout), ("-c", Stdout),
    ("-l", Stdout), ("-t", Stdout), ("-v", Stdout), ("-z", Stdout), ("-Z", Stdout),
];

const SCP: &[(&str, Opt)] = &[
    ("-r", Recursive), ("-P", Value), ("-p", Value), ("-i", Credential), ("-F", ReadsValue),
    ("-o", Value), ("-l", Value), ("-c", Value), ("-J", Value), ("-S", Runs), ("-D", Value),
    ("-X", Value),
];

const RSYNC: &[(&str, Opt)] = &[
    ("-R", Parents), ("--relative", Parents), ("-e", Runs), ("--rsh", Runs),
    ("-r", Recursive), ("--recursive", Recursive), ("-a", Recursive), ("--archive", Recursive),
    ("--exclude", Value), ("--include", Value),
    ("--exclude-from", ReadsValue), ("--include-from", ReadsValue), ("--files-from", ReadsValue),
    ("-f", Value), ("--filter", Value), ("-T", Value), ("--temp-dir", Value),
    ("--partial-dir", Value), ("--log-file", WritesValue), ("--password-file", ReadsValue),
    ("-B", Value), ("--block-size", Value), ("--chmod", Value), ("--backup-dir", Value),
    ("--suffix", Value), ("--bwlimit", Value), ("--rsync-path", Value), ("--timeout", Value),
    ("--port", Value),
];

/// ssh: the keys, configuration and sockets are its own (`-i KEY` is the
/// credential use ssh is for); `-E LOG` is written.
const SSH: &[(&str, Opt)] = &[
    ("-i", Credential), ("-F", Credential), ("-S", Credential), ("-E", WritesValue),
    ("-o", Value), ("-l", Value), ("-p", Value), ("-J", Value), ("-L", Value), ("-R", Value),
    ("-D", Value), ("-W", Value), ("-b", Value), ("-B", Value), ("-c", Value), ("-e", Value),
    ("-I", Value), ("-m", Value), ("-O", Value), ("-Q", Value), ("-w", Value),
];

/// Programs whose pattern operand is a script that can open files by name
/// (`sed 'w FILE'`, `awk '{print > "FILE"}'`): its words are checked by
/// name.
pub const SCRIPTED: &[&str] = &["sed", "awk", "gawk", "mawk", "nawk"];

/// openssl's commands share these file options (`openssl enc -in F -out G`).
const OPENSSL: &[(&str, Opt)] = &[
    ("-in", ReadsValue), ("-out", WritesValue), ("-inkey", ReadsValue), ("-key", ReadsValue),
    ("-kfile", ReadsValue), ("-CAfile", ReadsValue), ("-cert", ReadsValue), ("-certfile", ReadsValue),
    ("-signkey", ReadsValue), ("-sigfile", ReadsValue), ("-config", ReadsValue),
    ("-rand", ReadsValue), ("-writerand", WritesValue), ("-keyout", WritesValue),
    ("-pass", Value), ("-passin", Value), ("-passout", Value),
];

const COMPRESS_KIN: &[(&str, Opt)] = &[
    ("-c", Stdout), ("--stdout", Stdout), ("--to-stdout", Stdout), ("-t", Stdout),
    ("--test", Stdout), ("-l", Stdout), ("--list", Stdout), ("-S", Value), ("--suffix", Value),
    ("-r", Recursive), ("--recursive", Recursive), ("-T", Value), ("--threads", Value),
];

const CHECKSUM_KIN: &[(&str, Opt)] = &[("-c", OperandsList), ("--check", OperandsList)];

/// The table. Names are matched after the path and quoting are removed
/// (`/usr/bin/cat`, `\cat` and `'cat'` are `cat`).
pub const COMMANDS: &[Spec] = &[
    spec(&["more", "rev", "source", "."], Read, &[]),
    grammar(&["cat"], Read, CAT),
    grammar(&["tac"], Read, TAC),
    grammar(&["fold"], Read, FOLD),
    grammar(&["expand"], Read, EXPAND),
    grammar(&["unexpand"], Read, UNEXPAND),
    grammar(&["nl"], Read, NL),
    spec(&["less"], Read, LESS),
    grammar(&["head"], Read, HEAD),
    grammar(&["tail"], Read, TAIL),
    grammar(&["wc"], Read, WC),
    grammar(&["sort"], Read, SORT),
    grammar(&["uniq"], InOut, UNIQ),
    grammar(&["cut"], Read, CUT),
    grammar(&["paste"], Read, PASTE),
    grammar(&["pr"], Read, PR),
    grammar(&["fmt"], Read, FMT),
    grammar(&["comm"], Read, COMM),
    grammar(&["join"], Read, JOIN),
    grammar(&["column"], Read, COLUMN),
    grammar(&["iconv"], Read, ICONV),
    grammar(&["od"], Read, OD),
    spec(&["xxd"], InOut, XXD),
    spec(&["hexdump", "hd"], Read, HEXDUMP),
    spec(&["strings"], Read, STRINGS),
    grammar(&["base64"], Read, BASE64),
    grammar(&["base32"], Read, BASE32),
    grammar(&["md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum"], Read, SUMS),
    grammar(&["cksum"], Read, CKSUM),
    spec(&["b2sum"], Read, CHECKSUM_KIN),
    spec(&["file"], Read, FILE),
    grammar(&["diff"], Read, DIFF),
    grammar(&["cmp"], Read, CMP),
    grammar(&["grep", "egrep", "fgrep"], PatternRead, GREP),
    spec(&["zgrep", "zegrep", "zfgrep", "bzgrep", "xzgrep", "zstdgrep"], PatternRead, GREP),
    walker(&["rg"], PatternRead, RG),
    walker(&["ag"], PatternRead, AG),
    grammar(&["sed"], PatternRead, SED),
    spec(&["awk", "gawk", "mawk", "nawk"], PatternRead, AWK),
    spec(&["jq"], PatternRead, JQ),
    spec(&["yq"], PatternRead, YQ),
    walker(&["find"], Find, &[]),
    Spec { names: &["ls", "dir"], shape: Read, always_recursive: false, lists_cwd: true, complete: true, opts: LS },
    walker(&["tree"], Read, TREE),
    Spec { complete: true, ..walker(&["du"], Read, DU) },
    grammar(&["stat"], Read, STAT),
    grammar(&["tar"], Tar, TAR),
    spec(&["zip"], Zip, ZIP),
    spec(&["unzip"], Unzip, UNZIP),
    grammar(&["gzip"], Compress, COMPRESS),
    spec(&["gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd"], Compress, COMPRESS_KIN),
    spec(&["zcat", "bzcat", "xzcat", "zless", "zmore"], Read, &[]),
    grammar(&["cp"], Copy, COPY),
    grammar(&["install"], Copy, INSTALL),
    grammar(&["mv"], Move, MV),
    grammar(&["ln"], Link, LINK),
    spec(&["scp"], Copy, SCP),
    spec(&["rsync"], Copy, RSYNC),
    grammar(&["curl"], Curl, CURL),
    grammar(&["wget"], Wget, WGET),
    grammar(&["tee"], Write, TEE),
    grammar(&["truncate"], Write, TRUNCATE),
    grammar(&["touch"], Write, TOUCH),
    grammar(&["rm"], Write, RM),
    spec(&["shred", "unlink", "rmdir", "ed", "red"], Write, &[]),
    grammar(&["mkdir"], Write, MKDIR),
    grammar(&["chmod"], ModeWrite, MODE),
    grammar(&["chown"], ModeWrite, CHOWN),
    grammar(&["chgrp"], ModeWrite, CHGRP),
    spec(&["dd"], Dd, &[]),
    spec(&["openssl"], Named, OPENSSL),
    spec(&["socat"], Socat, &[]),
    spec(&["ssh"], Remote, SSH),
    spec(INERT, Inert, &[]),
];

/// Programs that open none of their words (they print, compare or store
/// them): the named-path rule does not apply to them. Redirections still
/// count.
const INERT: &[&str] = &[
    "echo", "printf", "test", "[", "true", "false", ":", "exit", "return", "export", "local",
    "declare", "typeset", "readonly", "unset", "set", "shift", "unalias", "type",
    "which", "hash", "sleep", "kill", "wait", "jobs", "umask", "ulimit", "shopt", "basename",
    "dirname", "seq", "yes", "expr", "let", "getopts", "pwd", "printenv", "whoami", "id",
    "uname", "date", "read", "break", "continue",
];

/// What a program not in the table is: its words are checked by name.
const UNKNOWN: Spec = spec(&[], Opaque, &[]);

// Omissions, each a decision:
// - Interpreters (`python -c`, `node -e`, `perl`, `ruby`) and compiled
//   binaries open files the text does not name; the hook cannot see them.
//   The sandbox and Claude's own rules are the layers for those.
// - Editors (`vi`, `nano`, `emacs`) are interactive; Claude's Bash tool
//   runs without a terminal.
// - `ssh`, `gpg`, `git`, `aws`, `kubectl` read their own credentials by
//   design; denying them by that would forbid the tools, not the leak.
//   `scp -i KEY` is such a use, so its value is not a read.
// - `cpio`, `7z`: archive tools beyond tar/zip/unzip/gzip are not
//   modelled: they are unknown programs, whose words are checked by name.
// - Wrappers (`sudo`, `env`, `nice`, `xargs`, ...) are looked through in
//   [`super::bash`], not listed here.

/// The entry for a command name; a program not listed is [`Shape::Opaque`].
pub fn lookup(name: &str) -> &'static Spec {
    COMMANDS
        .iter()
        .find(|s| s.names.contains(&name))
        .unwrap_or(&UNKNOWN)
}
