//! The text readers' grammars: cat and kin, head, tail, sort, cut, paste,
//! pr, fmt, comm, join, column, iconv, od, the checksums, diff, cmp, grep,
//! sed.

use crate::hook::commands::Opt::{self, *};

pub const CAT: &[(&str, Opt)] = &[
    ("-A", Flag), ("--show-all", Flag), ("-b", Flag), ("--number-nonblank", Flag), ("-e", Flag),
    ("-E", Flag), ("--show-ends", Flag), ("-n", Flag), ("--number", Flag), ("-s", Flag),
    ("--squeeze-blank", Flag), ("-t", Flag), ("-T", Flag), ("--show-tabs", Flag), ("-u", Flag),
    ("-v", Flag), ("--show-nonprinting", Flag),
];

pub const TAC: &[(&str, Opt)] = &[
    ("-b", Flag), ("--before", Flag), ("-r", Flag), ("--regex", Flag), ("-s", Value),
    ("--separator", Value),
];

pub const NL: &[(&str, Opt)] = &[
    ("-b", Value), ("--body-numbering", Value), ("-d", Value), ("--section-delimiter", Value),
    ("-f", Value), ("--footer-numbering", Value), ("-h", Value), ("--header-numbering", Value),
    ("-i", Value), ("--line-increment", Value), ("-l", Value), ("--join-blank-lines", Value),
    ("-n", Value), ("--number-format", Value), ("-p", Flag), ("--no-renumber", Flag), ("-s", Value),
    ("--number-separator", Value), ("-v", Value), ("--starting-line-number", Value), ("-w", Value),
    ("--number-width", Value),
];

pub const HEAD: &[(&str, Opt)] = &[
    ("-c", Value), ("--bytes", Value), ("-n", Value), ("--lines", Value), ("-q", Flag),
    ("--quiet", Flag), ("--silent", Flag), ("-v", Flag), ("--verbose", Flag), ("-z", Flag),
    ("--zero-terminated", Flag),
];

pub const TAIL: &[(&str, Opt)] = &[
    ("-c", Value), ("--bytes", Value), ("-f", Flag), ("--follow", Optional), ("-F", Flag),
    ("-n", Value), ("--lines", Value), ("--max-unchanged-stats", Value), ("--pid", Value),
    ("-q", Flag), ("--quiet", Flag), ("--silent", Flag), ("--retry", Flag), ("-s", Value),
    ("--sleep-interval", Value), ("-v", Flag), ("--verbose", Flag), ("-z", Flag),
    ("--zero-terminated", Flag),
];

pub const WC: &[(&str, Opt)] = &[
    ("-c", Flag), ("--bytes", Flag), ("-m", Flag), ("--chars", Flag), ("-l", Flag),
    ("--lines", Flag), ("--files0-from", ReadsList), ("-L", Flag), ("--max-line-length", Flag),
    ("-w", Flag), ("--words", Flag),
];

pub const SORT: &[(&str, Opt)] = &[
    ("-b", Flag), ("--ignore-leading-blanks", Flag), ("-d", Flag), ("--dictionary-order", Flag),
    ("-f", Flag), ("--ignore-case", Flag), ("-g", Flag), ("--general-numeric-sort", Flag),
    ("-i", Flag), ("--ignore-nonprinting", Flag), ("-M", Flag), ("--month-sort", Flag),
    ("-h", Flag), ("--human-numeric-sort", Flag), ("-n", Flag), ("--numeric-sort", Flag),
    ("-R", Flag), ("--random-sort", Flag), ("--random-source", ReadsValue), ("-r", Flag),
    ("--reverse", Flag), ("--sort", Value), ("-V", Flag), ("--version-sort", Flag),
    ("--batch-size", Value), ("-c", Value), ("--check", Value), ("-C", Value),
    ("--compress-program", Runs), ("--debug", Flag), ("--files0-from", ReadsList), ("-k", Value),
    ("--key", Value), ("-m", Flag), ("--merge", Flag), ("-o", WritesValue),
    ("--output", WritesValue), ("-s", Flag), ("--stable", Flag), ("-S", Value),
    ("--buffer-size", Value), ("-t", Value), ("--field-separator", Value), ("-T", Value),
    ("--temporary-directory", Value), ("--parallel", Value), ("-u", Flag), ("--unique", Flag),
    ("-z", Flag), ("--zero-terminated", Flag),
];

pub const UNIQ: &[(&str, Opt)] = &[
    ("-c", Flag), ("--count", Flag), ("-d", Flag), ("--repeated", Flag), ("-D", Flag),
    ("--all-repeated", Optional), ("-f", Value), ("--skip-fields", Value), ("--group", Optional),
    ("-i", Flag), ("--ignore-case", Flag), ("-s", Value), ("--skip-chars", Value), ("-u", Flag),
    ("--unique", Flag), ("-z", Flag), ("--zero-terminated", Flag), ("-w", Value),
    ("--check-chars", Value),
];

pub const CUT: &[(&str, Opt)] = &[
    ("-b", Value), ("--bytes", Value), ("-c", Value), ("--characters", Value), ("-d", Value),
    ("--delimiter", Value), ("-f", Value), ("--fields", Value), ("-n", Flag),
    ("--complement", Flag), ("-s", Flag), ("--only-delimited", Flag), ("--output-delimiter", Value),
    ("-z", Flag), ("--zero-terminated", Flag), ("-M", Flag),
];

pub const OD: &[(&str, Opt)] = &[
    ("-A", Value), ("--address-radix", Value), ("--endian", Value), ("-j", Value),
    ("--skip-bytes", Value), ("-N", Value), ("--read-bytes", Value), ("-S", Value),
    ("--strings", Optional), ("-t", Value), ("--format", Value), ("-v", Flag),
    ("--output-duplicates", Flag), ("-w", Optional), ("--width", Optional), ("--traditional", Flag),
    ("-a", Flag), ("-b", Flag), ("-c", Flag), ("-d", Flag), ("-f", Flag), ("-i", Flag),
    ("-l", Flag), ("-o", Flag), ("-s", Flag), ("-x", Flag),
];

pub const BASE64: &[(&str, Opt)] = &[
    ("-d", Flag), ("--decode", Flag), ("-i", Flag), ("--ignore-garbage", Flag), ("-w", Value),
    ("--wrap", Value),
];

pub const BASE32: &[(&str, Opt)] = &[
    ("-d", Flag), ("--decode", Flag), ("-i", Flag), ("--ignore-garbage", Flag), ("-w", Value),
    ("--wrap", Value),
];

pub const SUMS: &[(&str, Opt)] = &[
    ("-b", Flag), ("--binary", Flag), ("-c", OperandsList), ("--check", OperandsList),
    ("--tag", Flag), ("-t", Flag), ("--text", Flag), ("-z", Flag), ("--zero", Flag),
    ("--ignore-missing", Flag), ("--quiet", Flag), ("--status", Flag), ("--strict", Flag),
    ("-w", Flag), ("--warn", Flag),
];

pub const CKSUM: &[(&str, Opt)] = &[
    ("-a", Value), ("--algorithm", Value), ("-c", OperandsList), ("--check", OperandsList),
    ("-l", Value), ("--length", Value), ("--tag", Flag), ("--untagged", Flag), ("-z", Flag),
    ("--zero", Flag), ("--ignore-missing", Flag), ("--quiet", Flag), ("--status", Flag),
    ("--strict", Flag), ("-w", Flag), ("--warn", Flag), ("--debug", Flag),
];

pub const PASTE: &[(&str, Opt)] = &[
    ("-d", Value), ("--delimiters", Value), ("-s", Flag), ("--serial", Flag), ("-z", Flag),
    ("--zero-terminated", Flag),
];

pub const PR: &[(&str, Opt)] = &[
    ("-a", Flag), ("--across", Flag), ("-c", Flag), ("--show-control-chars", Flag), ("-d", Flag),
    ("--double-space", Flag), ("-D", Value), ("--date-format", Value), ("-e", Optional),
    ("-F", Flag), ("-f", Flag), ("--form-feed", Flag), ("-h", Value), ("--header", Value),
    ("-i", Optional), ("-J", Flag), ("--join-lines", Flag), ("-l", Value), ("--length", Value),
    ("-m", Flag), ("--merge", Flag), ("-n", Optional), ("-N", Value),
    ("--first-line-number", Value), ("-o", Value), ("--indent", Value), ("-r", Flag),
    ("--no-file-warnings", Flag), ("-s", Optional), ("--separator", Optional), ("-S", Optional),
    ("--sep-string", Optional), ("-t", Flag), ("--omit-header", Flag), ("-T", Flag),
    ("--omit-pagination", Flag), ("-v", Flag), ("--show-nonprinting", Flag), ("-w", Value),
    ("--width", Value), ("-W", Value), ("--page-width", Value),
];

pub const FMT: &[(&str, Opt)] = &[
    ("-c", Flag), ("--crown-margin", Flag), ("-p", Value), ("--prefix", Value), ("-s", Flag),
    ("--split-only", Flag), ("-t", Flag), ("--tagged-paragraph", Flag), ("-u", Flag),
    ("--uniform-spacing", Flag), ("-w", Value), ("--width", Value), ("-g", Value),
    ("--goal", Value),
];

pub const FOLD: &[(&str, Opt)] = &[
    ("-b", Flag), ("--bytes", Flag), ("-s", Flag), ("--spaces", Flag), ("-w", Value),
    ("--width", Value),
];

pub const EXPAND: &[(&str, Opt)] = &[
    ("-i", Flag), ("--initial", Flag), ("-t", Value), ("--tabs", Value),
];

pub const UNEXPAND: &[(&str, Opt)] = &[
    ("-a", Flag), ("--all", Flag), ("--first-only", Flag), ("-t", Value), ("--tabs", Value),
];

pub const COMM: &[(&str, Opt)] = &[
    ("-1", Flag), ("-2", Flag), ("-3", Flag), ("--check-order", Flag), ("--nocheck-order", Flag),
    ("--output-delimiter", Value), ("--total", Flag), ("-z", Flag), ("--zero-terminated", Flag),
];

pub const JOIN: &[(&str, Opt)] = &[
    ("-a", Value), ("-e", Value), ("-i", Flag), ("--ignore-case", Flag), ("-j", Value),
    ("-o", Value), ("-t", Value), ("-v", Value), ("-1", Value), ("-2", Value),
    ("--check-order", Flag), ("--nocheck-order", Flag), ("--header", Flag), ("-z", Flag),
    ("--zero-terminated", Flag),
];

pub const DIFF: &[(&str, Opt)] = &[
    ("--normal", Flag), ("-q", Flag), ("--brief", Flag), ("-s", Flag),
    ("--report-identical-files", Flag), ("-c", Flag), ("-C", Value), ("--context", Optional),
    ("-u", Flag), ("-U", Value), ("--unified", Optional), ("-e", Flag), ("--ed", Flag),
    ("-n", Flag), ("--rcs", Flag), ("-y", Flag), ("--side-by-side", Flag), ("-W", Value),
    ("--width", Value), ("--left-column", Flag), ("--suppress-common-lines", Flag), ("-p", Flag),
    ("--show-c-function", Flag), ("-F", Value), ("--show-function-line", Value), ("--label", Value),
    ("-t", Flag), ("--expand-tabs", Flag), ("-T", Flag), ("--initial-tab", Flag),
    ("--tabsize", Value), ("--suppress-blank-empty", Flag), ("-l", Flag), ("--paginate", Flag),
    ("-r", Recursive), ("--recursive", Recursive), ("--no-dereference", Flag), ("-N", Flag),
    ("--new-file", Flag), ("--unidirectional-new-file", Flag), ("--ignore-file-name-case", Flag),
    ("--no-ignore-file-name-case", Flag), ("-x", Value), ("--exclude", Value), ("-X", ReadsValue),
    ("--exclude-from", ReadsValue), ("-S", Value), ("--starting-file", Value),
    ("--from-file", ReadsValue), ("--to-file", ReadsValue), ("-i", Flag), ("--ignore-case", Flag),
    ("-E", Flag), ("--ignore-tab-expansion", Flag), ("-Z", Flag), ("--ignore-trailing-space", Flag),
    ("-b", Flag), ("--ignore-space-change", Flag), ("-w", Flag), ("--ignore-all-space", Flag),
    ("-B", Flag), ("--ignore-blank-lines", Flag), ("-I", Value), ("--ignore-matching-lines", Value),
    ("-a", Flag), ("--text", Flag), ("--strip-trailing-cr", Flag), ("-D", Value),
    ("--ifdef", Value), ("--line-format", Value), ("-d", Flag), ("--minimal", Flag),
    ("--horizon-lines", Value), ("--speed-large-files", Flag), ("--color", Optional),
    ("--palette", Value), ("--old-group-format", Value), ("--new-group-format", Value),
    ("--unchanged-group-format", Value), ("--changed-group-format", Value),
    ("--old-line-format", Value), ("--new-line-format", Value), ("--unchanged-line-format", Value),
];

pub const CMP: &[(&str, Opt)] = &[
    ("-b", Flag), ("--print-bytes", Flag), ("-i", Value), ("--ignore-initial", Value), ("-l", Flag),
    ("--verbose", Flag), ("-n", Value), ("--bytes", Value), ("-s", Flag), ("--quiet", Flag),
    ("--silent", Flag),
];

pub const GREP: &[(&str, Opt)] = &[
    ("-E", Flag), ("--extended-regexp", Flag), ("-F", Flag), ("--fixed-strings", Flag),
    ("-G", Flag), ("--basic-regexp", Flag), ("-P", Flag), ("--perl-regexp", Flag), ("-e", Pattern),
    ("--regexp", Pattern), ("-f", PatternFile), ("--file", PatternFile), ("-i", Flag),
    ("--ignore-case", Flag), ("--no-ignore-case", Flag), ("-w", Flag), ("--word-regexp", Flag),
    ("-x", Flag), ("--line-regexp", Flag), ("-z", Flag), ("--null-data", Flag), ("-s", Flag),
    ("--no-messages", Flag), ("-v", Flag), ("--invert-match", Flag), ("-m", Value),
    ("--max-count", Value), ("-b", Flag), ("--byte-offset", Flag), ("-n", Flag),
    ("--line-number", Flag), ("--line-buffered", Flag), ("-H", Flag), ("--with-filename", Flag),
    ("-h", Flag), ("--no-filename", Flag), ("--label", Value), ("-o", Flag),
    ("--only-matching", Flag), ("-q", Flag), ("--quiet", Flag), ("--silent", Flag),
    ("--binary-files", Value), ("-a", Flag), ("--text", Flag), ("-I", Flag),
    ("-d", DirectoriesAction), ("--directories", DirectoriesAction), ("-D", Value),
    ("--devices", Value), ("-r", Recursive), ("--recursive", Recursive), ("-R", Recursive),
    ("--dereference-recursive", Recursive), ("--include", Value), ("--exclude", Value),
    ("--exclude-from", ReadsValue), ("--exclude-dir", Value), ("-L", Flag),
    ("--files-without-match", Flag), ("-l", Flag), ("--files-with-matches", Flag), ("-c", Flag),
    ("--count", Flag), ("-T", Flag), ("--initial-tab", Flag), ("-Z", Flag), ("--null", Flag),
    ("-B", Value), ("--before-context", Value), ("-A", Value), ("--after-context", Value),
    ("-C", Value), ("--context", Value), ("--group-separator", Value),
    ("--no-group-separator", Flag), ("--color", Optional), ("--colour", Optional), ("-U", Flag),
    ("--binary", Flag),
];

pub const SED: &[(&str, Opt)] = &[
    ("-n", Flag), ("--quiet", Flag), ("--silent", Flag), ("--debug", Flag), ("-e", Pattern),
    ("--expression", Pattern), ("-f", PatternFile), ("--file", PatternFile),
    ("--follow-symlinks", Flag), ("-i", InPlace), ("--in-place", InPlace), ("-l", Value),
    ("--line-length", Value), ("--posix", Flag), ("-E", Flag), ("-r", Flag),
    ("--regexp-extended", Flag), ("-s", Flag), ("--separate", Flag), ("--sandbox", Flag),
    ("-u", Flag), ("--unbuffered", Flag), ("-z", Flag), ("--null-data", Flag),
];
