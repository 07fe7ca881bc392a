//! Entry point: parse arguments, run, and turn an error into its exit code.
//! This is the only place the process exits.

use clap::Parser;

// The static musl build (`make build`): dlmalloc and twsrt-mem's memcpy
// family in place of musl's own, which are slower (src/heap.rs).
#[cfg(target_env = "musl")]
#[global_allocator]
static HEAP: twsrt::heap::Heap = twsrt::heap::Heap::new();
#[cfg(target_env = "musl")]
use twsrt_mem as _;

fn main() {
    let cli = twsrt::cli::Cli::parse();
    let code = match twsrt::cli::run(cli) {
        Ok(code) => code,
        Err(err) => {
            twsrt::ui::error(&err.to_string());
            err.exit_code()
        }
    };
    std::process::exit(code);
}
