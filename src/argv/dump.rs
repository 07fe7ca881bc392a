//! The grammar as text, one line per option or subcommand, for `twsrt
//! audit --dump-grammar` (which `make test-clients` compares with the real
//! `--help` of each pinned client).

use super::{Grammar, all_tables};

/// One line per option, `TABLE<TAB>SPELLINGS<TAB>ARITY[<TAB>hidden]`, and
/// one per subcommand, `TABLE<TAB>command<TAB>NAMES<TAB>table|pass|refuse`,
/// table by table from `root`.
pub fn dump(root: &'static Grammar) -> Vec<String> {
    let mut lines = Vec::new();
    for table in all_tables(root) {
        for opt in table.options {
            let hidden = if opt.hidden { "\thidden" } else { "" };
            lines.push(format!(
                "{}\t{}\t{}{hidden}",
                table.name,
                opt.names.join(","),
                opt.arity.name()
            ));
        }
        for sub in table.subcommands {
            lines.push(format!(
                "{}\tcommand\t{}\t{}",
                table.name,
                sub.names.join(","),
                sub.kind()
            ));
        }
    }
    lines
}
