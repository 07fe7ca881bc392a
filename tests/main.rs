//! The one integration test binary (`cargo test --test main`): a module per
//! concern, sharing the scenario builder in `support`. One binary links the
//! crate and compiles `support` once, where a binary per file did it a dozen
//! times. A new `tests/*.rs` file is not a target of its own
//! (`autotests = false`): declare it here.

mod support;

mod adoption;
mod adoption_run;
mod adoption_srt;
mod adoption_stricter;
mod adoption_yolo;
mod allow_read;
mod byte_order_mark;
mod claude_schema;
mod claude_sync;
mod codex_missing_dir;
mod compile_errors;
mod config_cmd;
mod copilot_sandbox;
mod copilot_settings;
mod copilot_shell;
mod diagnostics;
mod diff_directions;
mod diff_loaded;
mod diff_report;
mod divergent_inputs;
mod doctor_cmd;
mod explain_cmd;
mod explain_srt;
mod first_hour;
mod fuzz_regressions;
mod gemini_cmd;
mod guard_files;
mod guard_switches;
mod hook_cmd;
mod hook_file_tools;
mod hook_globs;
mod hook_kernel;
mod hook_proc;
mod hook_walks;
mod import_claude;
mod import_codex;
mod import_copilot;
mod import_gemini;
mod import_init;
mod launch;
mod launch_gemini;
mod man;
mod managed;
mod managed_explain;
mod mutation;
mod opencode_cmd;
mod opencode_layers;
mod output_errors;
mod parity;
mod parity_guards;
mod parity_table;
mod project;
mod quiet;
mod reliability_concurrency;
mod reliability_leaks;
mod reliability_targets;
mod sandbox_keys;
mod spelling_property;
mod spellings;
mod srt_credentials;
mod srt_real;
mod srt_setup;
mod streams;
mod test_agent;
mod transactions;
mod unknown_keys;
mod view_cmds;
