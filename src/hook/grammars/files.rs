//! The file tools' grammars: tar, cp, mv, install, ln, rm, mkdir, touch,
//! truncate, tee, chmod, chown, chgrp, ls, du, stat, gzip.

use crate::hook::commands::Opt::{self, *};

pub const TAR: &[(&str, Opt)] = &[
    ("-A", Create), ("--catenate", Create), ("--concatenate", Create), ("-c", Create),
    ("--create", Create), ("--delete", Flag), ("-d", Flag), ("--diff", Flag), ("--compare", Flag),
    ("-r", Create), ("--append", Create), ("--test-label", Flag), ("-t", Flag), ("--list", Flag),
    ("-u", Create), ("--update", Create), ("-x", Extract), ("--extract", Extract),
    ("--get", Extract), ("--check-device", Flag), ("-g", WritesValue),
    ("--listed-incremental", WritesValue), ("-G", Flag), ("--incremental", Flag),
    ("--hole-detection", Value), ("--ignore-failed-read", Flag), ("--level", Value),
    ("--no-check-device", Flag), ("--no-seek", Flag), ("-n", Flag), ("--seek", Flag),
    ("--occurrence", Optional), ("--sparse-version", Value), ("-S", Flag), ("--sparse", Flag),
    ("--add-file", ReadsValue), ("-C", Directory), ("--directory", Directory), ("--exclude", Value),
    ("--exclude-backups", Flag), ("--exclude-caches", Flag), ("--exclude-caches-all", Flag),
    ("--exclude-caches-under", Flag), ("--exclude-ignore", Value),
    ("--exclude-ignore-recursive", Value), ("--exclude-tag", Value), ("--exclude-tag-all", Value),
    ("--exclude-tag-under", Value), ("--exclude-vcs", Flag), ("--exclude-vcs-ignores", Flag),
    ("--no-null", Flag), ("--no-recursion", Flag), ("--no-unquote", Flag),
    ("--no-verbatim-files-from", Flag), ("--null", Flag), ("--verbatim-files-from", Flag),
    ("--recursion", Flag), ("-T", ReadsList), ("--files-from", ReadsList), ("--unquote", Flag),
    ("-X", ReadsValue), ("--exclude-from", ReadsValue), ("--anchored", Flag),
    ("--ignore-case", Flag), ("--no-anchored", Flag), ("--no-ignore-case", Flag),
    ("--no-wildcards", Flag), ("--no-wildcards-match-slash", Flag), ("--wildcards", Flag),
    ("--wildcards-match-slash", Flag), ("--keep-directory-symlink", Flag),
    ("--keep-newer-files", Flag), ("-k", Flag), ("--keep-old-files", Flag),
    ("--no-overwrite-dir", Flag), ("--one-top-level", Optional), ("--overwrite", Flag),
    ("--overwrite-dir", Flag), ("--recursive-unlink", Flag), ("--remove-files", Flag),
    ("--skip-old-files", Flag), ("-U", Flag), ("--unlink-first", Flag), ("-W", Flag),
    ("--verify", Flag), ("--ignore-command-error", Flag), ("--no-ignore-command-error", Flag),
    ("-O", Stdout), ("--to-stdout", Stdout), ("--to-command", Runs),
    ("--atime-preserve", Optional), ("--clamp-mtime", Flag), ("--delay-directory-restore", Flag),
    ("--group", Value), ("--group-map", ReadsValue), ("--mode", Value), ("--mtime", Value),
    ("-m", Flag), ("--touch", Flag), ("--no-delay-directory-restore", Flag),
    ("--no-same-owner", Flag), ("--no-same-permissions", Flag), ("--numeric-owner", Flag),
    ("--owner", Value), ("--owner-map", ReadsValue), ("-p", Flag), ("--preserve-permissions", Flag),
    ("--same-permissions", Flag), ("--same-owner", Flag), ("--sort", Value), ("-s", Flag),
    ("--preserve-order", Flag), ("--same-order", Flag), ("--acls", Flag), ("--no-acls", Flag),
    ("--no-selinux", Flag), ("--no-xattrs", Flag), ("--selinux", Flag), ("--xattrs", Flag),
    ("--xattrs-exclude", Value), ("--xattrs-include", Value), ("--force-local", Flag),
    ("-f", Target), ("--file", Target), ("-F", Runs), ("--info-script", Runs),
    ("--new-volume-script", Runs), ("-L", Value), ("--tape-length", Value), ("-M", Flag),
    ("--multi-volume", Flag), ("--rmt-command", Runs), ("--rsh-command", Runs),
    ("--volno-file", WritesValue), ("-b", Value), ("--blocking-factor", Value), ("-B", Flag),
    ("--read-full-records", Flag), ("-i", Flag), ("--ignore-zeros", Flag), ("--record-size", Value),
    ("-H", Value), ("--format", Value), ("--old-archive", Flag), ("--portability", Flag),
    ("--pax-option", Value), ("--posix", Flag), ("-V", Value), ("--label", Value), ("-a", Flag),
    ("--auto-compress", Flag), ("-I", Runs), ("--use-compress-program", Runs), ("-j", Flag),
    ("--bzip2", Flag), ("-J", Flag), ("--xz", Flag), ("--lzip", Flag), ("--lzma", Flag),
    ("--lzop", Flag), ("--no-auto-compress", Flag), ("--zstd", Flag), ("-z", Flag),
    ("--gzip", Flag), ("--gunzip", Flag), ("--ungzip", Flag), ("-Z", Flag), ("--compress", Flag),
    ("--uncompress", Flag), ("--backup", Optional), ("--hard-dereference", Flag), ("-h", Flag),
    ("--dereference", Flag), ("-K", Value), ("--starting-file", Value), ("--newer-mtime", Value),
    ("-N", Value), ("--newer", Value), ("--after-date", Value), ("--one-file-system", Flag),
    ("-P", NamesUnknown), ("--absolute-names", NamesUnknown), ("--suffix", Value),
    ("--strip-components", Value), ("--transform", Value), ("--xform", Value),
    ("--checkpoint", Optional), ("--checkpoint-action", Value), ("--full-time", Flag),
    ("--index-file", WritesValue), ("-l", Flag), ("--check-links", Flag),
    ("--no-quote-chars", Value), ("--quote-chars", Value), ("--quoting-style", Value), ("-R", Flag),
    ("--block-number", Flag), ("--show-defaults", Flag), ("--show-omitted-dirs", Flag),
    ("--show-snapshot-field-ranges", Flag), ("--show-transformed-names", Flag),
    ("--show-stored-names", Flag), ("--totals", Optional), ("--utc", Flag), ("-v", Flag),
    ("--verbose", Flag), ("--warning", Value), ("-w", Flag), ("--interactive", Flag),
    ("--confirmation", Flag), ("-o", Flag), ("--restrict", Flag), ("--usage", Flag),
];

pub const COPY: &[(&str, Opt)] = &[
    ("-a", Recursive), ("--archive", Recursive), ("--attributes-only", Flag),
    ("--backup", Optional), ("-b", Flag), ("--copy-contents", Flag), ("-d", Flag), ("-f", Flag),
    ("--force", Flag), ("-i", Flag), ("--interactive", Flag), ("-H", Flag), ("-l", Links),
    ("--link", Links), ("-L", Flag), ("--dereference", Flag), ("-n", Flag), ("--no-clobber", Flag),
    ("-P", Flag), ("--no-dereference", Flag), ("-p", Flag), ("--preserve", Optional),
    ("--no-preserve", Value), ("--parents", Parents), ("-R", Recursive), ("-r", Recursive),
    ("--recursive", Recursive), ("--reflink", Optional), ("--remove-destination", Flag),
    ("--sparse", Value), ("--strip-trailing-slashes", Flag), ("-s", Links),
    ("--symbolic-link", Links), ("-S", Value), ("--suffix", Value), ("-t", Target),
    ("--target-directory", Target), ("-T", NoTargetDir), ("--no-target-directory", NoTargetDir), ("-u", Flag),
    ("--update", Flag), ("-v", Flag), ("--verbose", Flag), ("-x", Flag),
    ("--one-file-system", Flag), ("-Z", Flag), ("--context", Optional),
];

pub const MV: &[(&str, Opt)] = &[
    ("--backup", Optional), ("-b", Flag), ("-f", Flag), ("--force", Flag), ("-i", Flag),
    ("--interactive", Flag), ("-n", Flag), ("--no-clobber", Flag),
    ("--strip-trailing-slashes", Flag), ("-S", Value), ("--suffix", Value), ("-t", Target),
    ("--target-directory", Target), ("-T", NoTargetDir), ("--no-target-directory", NoTargetDir), ("-u", Flag),
    ("--update", Flag), ("-v", Flag), ("--verbose", Flag), ("-Z", Flag), ("--context", Flag),
];

pub const INSTALL: &[(&str, Opt)] = &[
    ("--backup", Optional), ("-b", Flag), ("-c", Flag), ("-C", Flag), ("--compare", Flag),
    ("-d", AllWritten), ("--directory", AllWritten), ("-D", Flag), ("-g", Value),
    ("--group", Value), ("-m", Value), ("--mode", Value), ("-o", Value), ("--owner", Value),
    ("-p", Flag), ("--preserve-timestamps", Flag), ("-s", Flag), ("--strip", Flag),
    ("--strip-program", Value), ("-S", Value), ("--suffix", Value), ("-t", Target),
    ("--target-directory", Target), ("-T", NoTargetDir), ("--no-target-directory", NoTargetDir), ("-v", Flag),
    ("--verbose", Flag), ("--preserve-context", Flag), ("-Z", Flag), ("--context", Optional),
];

pub const LINK: &[(&str, Opt)] = &[
    ("--backup", Optional), ("-b", Flag), ("-d", Flag), ("-F", Flag), ("--directory", Flag),
    ("-f", Flag), ("--force", Flag), ("-i", Flag), ("--interactive", Flag), ("-L", Flag),
    ("--logical", Flag), ("-n", NoTargetDir), ("--no-dereference", NoTargetDir), ("-P", Flag),
    ("--physical", Flag), ("-r", Flag), ("--relative", Flag), ("-s", Flag), ("--symbolic", Flag),
    ("-S", Value), ("--suffix", Value), ("-t", Target), ("--target-directory", Target),
    ("-T", NoTargetDir), ("--no-target-directory", NoTargetDir), ("-v", Flag), ("--verbose", Flag),
];

pub const RM: &[(&str, Opt)] = &[
    ("-f", Flag), ("--force", Flag), ("-i", Flag), ("-I", Flag), ("--interactive", Optional),
    ("--one-file-system", Flag), ("--no-preserve-root", Flag), ("--preserve-root", Optional),
    ("-r", Recursive), ("-R", Recursive), ("--recursive", Recursive), ("-d", Flag), ("--dir", Flag),
    ("-v", Flag), ("--verbose", Flag),
];

pub const MKDIR: &[(&str, Opt)] = &[
    ("-m", Value), ("--mode", Value), ("-p", Flag), ("--parents", Flag), ("-v", Flag),
    ("--verbose", Flag), ("-Z", Flag), ("--context", Optional),
];

pub const TOUCH: &[(&str, Opt)] = &[
    ("-a", Flag), ("-c", Flag), ("--no-create", Flag), ("-d", Value), ("--date", Value),
    ("-f", Flag), ("-h", Flag), ("--no-dereference", Flag), ("-m", Flag), ("-r", ReadsValue),
    ("--reference", ReadsValue), ("-t", Value), ("--time", Value),
];

pub const TRUNCATE: &[(&str, Opt)] = &[
    ("-c", Flag), ("--no-create", Flag), ("-o", Flag), ("--io-blocks", Flag), ("-r", ReadsValue),
    ("--reference", ReadsValue), ("-s", Value), ("--size", Value),
];

pub const TEE: &[(&str, Opt)] = &[
    ("-a", Flag), ("--append", Flag), ("-i", Flag), ("--ignore-interrupts", Flag), ("-p", Flag),
    ("--output-error", Optional),
];

pub const MODE: &[(&str, Opt)] = &[
    ("-c", Flag), ("--changes", Flag), ("-f", Flag), ("--silent", Flag), ("--quiet", Flag),
    ("-v", Flag), ("--verbose", Flag), ("--no-preserve-root", Flag), ("--preserve-root", Flag),
    ("--reference", ReadsValue), ("-R", Recursive), ("--recursive", Recursive),
];

pub const CHOWN: &[(&str, Opt)] = &[
    ("-c", Flag), ("--changes", Flag), ("-f", Flag), ("--silent", Flag), ("--quiet", Flag),
    ("-v", Flag), ("--verbose", Flag), ("--dereference", Flag), ("-h", Flag),
    ("--no-dereference", Flag), ("--from", Value), ("--no-preserve-root", Flag),
    ("--preserve-root", Flag), ("--reference", ReadsValue), ("-R", Recursive),
    ("--recursive", Recursive), ("-H", Flag), ("-L", Flag), ("-P", Flag),
];

pub const CHGRP: &[(&str, Opt)] = &[
    ("-c", Flag), ("--changes", Flag), ("-f", Flag), ("--silent", Flag), ("--quiet", Flag),
    ("-v", Flag), ("--verbose", Flag), ("--dereference", Flag), ("-h", Flag),
    ("--no-dereference", Flag), ("--no-preserve-root", Flag), ("--preserve-root", Flag),
    ("--reference", ReadsValue), ("-R", Recursive), ("--recursive", Recursive), ("-H", Flag),
    ("-L", Flag), ("-P", Flag),
];

pub const LS: &[(&str, Opt)] = &[
    ("-a", Flag), ("--all", Flag), ("-A", Flag), ("--almost-all", Flag), ("--author", Flag),
    ("-b", Flag), ("--escape", Flag), ("--block-size", Value), ("-B", Flag),
    ("--ignore-backups", Flag), ("-c", Flag), ("-C", Flag), ("--color", Optional), ("-d", Flag),
    ("--directory", Flag), ("-D", Flag), ("--dired", Flag), ("-f", Flag), ("-F", Flag),
    ("--classify", Optional), ("--file-type", Flag), ("--format", Value), ("--full-time", Flag),
    ("-g", Flag), ("--group-directories-first", Flag), ("-G", Flag), ("--no-group", Flag),
    ("-h", Flag), ("--human-readable", Flag), ("--si", Flag), ("-H", Flag),
    ("--dereference-command-line", Flag), ("--dereference-command-line-symlink-to-dir", Flag),
    ("--hide", Value), ("--hyperlink", Optional), ("--indicator-style", Value), ("-i", Flag),
    ("--inode", Flag), ("-I", Value), ("--ignore", Value), ("-k", Flag), ("--kibibytes", Flag),
    ("-l", Flag), ("-L", Flag), ("--dereference", Flag), ("-m", Flag), ("-n", Flag),
    ("--numeric-uid-gid", Flag), ("-N", Flag), ("--literal", Flag), ("-o", Flag), ("-p", Value),
    ("-q", Flag), ("--hide-control-chars", Flag), ("--show-control-chars", Flag), ("-Q", Flag),
    ("--quote-name", Flag), ("--quoting-style", Value), ("-r", Flag), ("--reverse", Flag),
    ("-R", Recursive), ("--recursive", Recursive), ("-s", Flag), ("--size", Flag), ("-S", Flag),
    ("--sort", Value), ("--time", Value), ("--time-style", Value), ("-t", Flag), ("-T", Value),
    ("--tabsize", Value), ("-u", Flag), ("-U", Flag), ("-v", Flag), ("-w", Value),
    ("--width", Value), ("-x", Flag), ("-X", Flag), ("-Z", Flag), ("--context", Flag),
    ("--zero", Flag), ("-1", Flag),
];

pub const DU: &[(&str, Opt)] = &[
    ("-0", Flag), ("--null", Flag), ("-a", Flag), ("--all", Flag), ("--apparent-size", Flag),
    ("-B", Value), ("--block-size", Value), ("-b", Flag), ("--bytes", Flag), ("-c", Flag),
    ("--total", Flag), ("-D", Flag), ("--dereference-args", Flag), ("-d", Value),
    ("--max-depth", Value), ("--summarize", Flag), ("--files0-from", ReadsList), ("-H", Flag),
    ("-h", Flag), ("--human-readable", Flag), ("--inodes", Flag), ("-k", Flag), ("-L", Flag),
    ("--dereference", Flag), ("-l", Flag), ("--count-links", Flag), ("-m", Flag), ("-P", Flag),
    ("--no-dereference", Flag), ("-S", Flag), ("--separate-dirs", Flag), ("--si", Flag),
    ("-s", Flag), ("-t", Value), ("--threshold", Value), ("--time", Flag), ("--time-style", Value),
    ("-X", ReadsValue), ("--exclude-from", ReadsValue), ("--exclude", Value), ("-x", Flag),
    ("--one-file-system", Flag),
];

pub const STAT: &[(&str, Opt)] = &[
    ("-L", Flag), ("--dereference", Flag), ("-f", Flag), ("--file-system", Flag),
    ("--cached", Value), ("-c", Value), ("--format", Value), ("--printf", Value), ("-t", Flag),
    ("--terse", Flag),
];

pub const ICONV: &[(&str, Opt)] = &[
    ("-f", Value), ("--from-code", Value), ("-t", Value), ("--to-code", Value), ("-l", Flag),
    ("--list", Flag), ("-c", Flag), ("-o", WritesValue), ("--output", WritesValue), ("-s", Flag),
    ("--silent", Flag), ("--verbose", Flag), ("--usage", Flag),
];

pub const COLUMN: &[(&str, Opt)] = &[
    ("-t", Flag), ("--table", Flag), ("-n", Value), ("--table-name", Value), ("-O", Value),
    ("--table-order", Value), ("-N", Value), ("--table-columns", Value), ("-l", Value),
    ("--table-columns-limit", Value), ("-E", Value), ("--table-noextreme", Value), ("-d", Flag),
    ("--table-noheadings", Flag), ("-e", Flag), ("--table-header-repeat", Flag), ("-H", Value),
    ("--table-hide", Value), ("-R", Value), ("--table-right", Value), ("-T", Value),
    ("--table-truncate", Value), ("-W", Value), ("--table-wrap", Value), ("-L", Flag),
    ("--keep-empty-lines", Flag), ("-J", Flag), ("--json", Flag), ("-r", Value), ("--tree", Value),
    ("-i", Value), ("--tree-id", Value), ("-p", Value), ("--tree-parent", Value), ("-c", Value),
    ("--output-width", Value), ("-o", Value), ("--output-separator", Value), ("-s", Value),
    ("--separator", Value), ("-x", Flag), ("--fillrows", Flag),
];

pub const COMPRESS: &[(&str, Opt)] = &[
    ("-c", Stdout), ("--stdout", Stdout), ("-d", Flag), ("--decompress", Flag), ("-f", Flag),
    ("--force", Flag), ("-k", Flag), ("--keep", Flag), ("-l", Stdout), ("--list", Stdout),
    ("-L", Flag), ("--license", Flag), ("-n", Flag), ("--no-name", Flag), ("-N", Flag),
    ("--name", Flag), ("-q", Flag), ("--quiet", Flag), ("-r", Recursive),
    ("--recursive", Recursive), ("--rsyncable", Flag), ("-S", Value), ("--suffix", Value),
    ("--synchronous", Flag), ("-t", Stdout), ("--test", Stdout), ("-v", Flag), ("--verbose", Flag),
    ("-1", Flag), ("--fast", Flag), ("-9", Flag), ("--best", Flag),
];
