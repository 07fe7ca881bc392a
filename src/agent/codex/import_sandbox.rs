//! `twsrt import codex`: Codex's legacy sandbox settings (`sandbox_mode`,
//! `[sandbox_workspace_write]`) read into policy terms. Codex ignores a
//! permission profile while either is in config.toml, so `generate -w`
//! refuses them; import takes what they mean (writable roots) and says, for
//! each, what the twsrt profile does instead and that the key goes.

use std::path::Path;

use serde_json::Value;

use crate::agent::import::{Entry, Imported, Left, List, Origin};

/// What `generate -w` needs of every legacy key.
const GO: &str = "generate -w refuses while it is in this file (Codex would ignore the twsrt \
                  profile): delete it once imported";

/// `sandbox_mode = VALUE` at `at`.
pub fn sandbox_mode(value: &Value, at: Origin, out: &mut Imported) {
    let reason = match value.as_str() {
        Some("workspace-write") => {
            out.add(Entry::listed(List::AllowWrite, ".", at.clone()));
            "Codex's workspace-write mode, imported as allowWrite \".\" (the working directory, \
             which the twsrt profile, based on :workspace, makes writable too)"
                .to_string()
        }
        Some("read-only") => "Codex's read-only mode: nothing is imported; the twsrt profile is \
             based on :workspace, so the working directory and the policy's allowWrite paths \
             become writable (looser than read-only)"
            .to_string(),
        Some("danger-full-access") => "Codex without a sandbox: nothing is imported; the twsrt \
             profile sandboxes every command by the policy (stricter)"
            .to_string(),
        _ => format!("a mode Codex 0.171 does not name ({value}): nothing is imported"),
    };
    out.left
        .push(Left::remove("sandbox_mode", at, format!("{reason}; {GO}")));
}

/// The `[sandbox_workspace_write]` table `value` of `path`.
pub fn workspace_write(value: &Value, path: &Path, out: &mut Imported) {
    let base = "/sandbox_workspace_write";
    let Some(table) = value.as_object() else {
        out.left.push(Left::remove(
            "sandbox_workspace_write",
            Origin::new(path, base),
            format!("not a table: nothing is imported; {GO}"),
        ));
        return;
    };
    for (key, value) in table {
        let at = Origin::new(path, format!("{base}/{key}"));
        match (key.as_str(), value) {
            ("writable_roots", Value::Array(roots)) => {
                for (i, root) in roots.iter().enumerate() {
                    let at = Origin::new(path, format!("{base}/{key}/{i}"));
                    match root.as_str() {
                        Some(root) => out.add(Entry::listed(List::AllowWrite, root, at)),
                        None => out.left.push(Left::remove(
                            format!("writable_roots entry {root}"),
                            at,
                            format!("not a path: nothing is imported; {GO}"),
                        )),
                    }
                }
            }
            ("network_access", Value::Bool(false)) => out.left.push(Left::remove(
                "network_access = false",
                at,
                "Codex's workspace-write mode without network: nothing is imported; the twsrt \
                 profile lets commands reach only the policy's allowedDomains, enforced by \
                 Codex's network_proxy feature twsrt turns on (with no allowedDomains no host \
                 is reachable); to keep Codex off the network whatever the policy allows, set \
                 enabled = false under [permissions.twsrt.network] after generate -w, a \
                 stricter value twsrt keeps",
            )),
            ("network_access", Value::Bool(true)) => out.left.push(Left::remove(
                "network_access = true",
                at,
                "Codex's workspace-write mode with any host: nothing is imported; the twsrt \
                 profile lets commands reach only the policy's allowedDomains (stricter)",
            )),
            _ => out.left.push(Left::remove(
                format!("sandbox_workspace_write.{key}"),
                at,
                "a setting of Codex's legacy workspace-write mode that the policy has no list \
                 for: nothing is imported",
            )),
        }
    }
    out.left.push(Left::remove(
        "[sandbox_workspace_write]",
        Origin::new(path, base),
        format!("the table itself (its entries are named above); {GO}"),
    ));
}
