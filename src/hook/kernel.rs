//! The verdict where a kernel sandbox confines every Bash command (Claude
//! Code's own sandbox on, with no way for a command to leave it): what the
//! analysis cannot see through is held by the kernel, so it is not asked
//! about (nor denied in yolo mode). What stays: the policy's bash deny and
//! ask rules (matched by meaning), a named access the policy denies, and
//! every file-tool verdict (the file tools run outside that sandbox).

use super::{Event, Mode, Policy, Verdict, decide, meaning};

/// The verdict on `event` when the kernel holds Bash. A Bash call whose
/// input asks to leave the sandbox (`dangerouslyDisableSandbox`) is decided
/// as without it.
pub fn decide_kernel_held(event: &Event, policy: &Policy, mode: Mode) -> Verdict {
    let leaves = event.tool_input.get("dangerouslyDisableSandbox") == Some(&true.into());
    if event.tool_name != "Bash" || leaves {
        return decide(event, policy, mode);
    }
    let by_rule = meaning::judge(event, policy);
    match (decide(event, policy, Mode::Full), mode) {
        (Verdict::Ask(_), _) if by_rule == Verdict::Pass => Verdict::Pass,
        (Verdict::Ask(reason), Mode::Yolo) => Verdict::Deny(reason),
        (v, _) => v,
    }
}
