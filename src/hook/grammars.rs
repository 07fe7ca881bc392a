//! Complete option grammars, as data, generated from each program's
//! `--help` on a GNU/Linux system (coreutils 9, grep, sed, tar, diff, gzip,
//! util-linux column, glibc iconv, curl 7.88, wget 1.21), the file-valued
//! options marked by hand. `grammar_help.rs` holds each one against the
//! real `--help` of the machine the tests run on.

pub mod files;
pub mod net;
pub mod text;
