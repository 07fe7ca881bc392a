//! The wrappers the guard looks through, as data: each one's names, its
//! option grammar (from its `--help` on a GNU/Linux system: coreutils,
//! util-linux, strace, findutils), the operands it takes before the
//! command, and what the rest of its words are. [`super::wrappers`] reads it.

/// What one option of a wrapper does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum W {
    /// No value.
    Flag,
    /// A value that is no file (checked by name all the same).
    Value,
    /// A value only when glued on (`--mount=FILE`, `-m/proc`).
    Glued,
    /// A file read (`xargs -a`, `fakeroot -i`).
    Reads,
    /// A file written (`strace -o`, `script -O`).
    Writes,
    /// A shell string run in place of a command (`su -c`, `flock -c`).
    Script,
    /// A string split into the command's words (`env -S`).
    Split,
    /// The working directory of the command (`env -C`, `unshare -w`).
    Chdir,
    /// The root directory of the command (`unshare -R`, `sudo -R`): the
    /// command's paths are not the ones the text shows.
    Root,
    /// No command follows: the wrapper acts on a running process
    /// (`taskset -p`, `chrt -p`).
    NoCommand,
    /// The words are a command, not a shell string (`watch -x`).
    Exec,
}

/// What the words after a wrapper's options are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rest {
    /// The command and its arguments.
    Command,
    /// Words joined by spaces, run by `sh -c` (`watch`).
    Joined,
    /// xargs: the command, with more arguments read from the input.
    Xargs,
    /// su, runuser: a user, then arguments for the user's shell.
    User,
    /// Files edited (`sudoedit`): written.
    Edited,
}

/// An operand a wrapper takes before the command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lead {
    /// No file (`timeout DURATION`, `chrt PRIORITY`, `taskset MASK`).
    Value,
    /// The lock file, opened and created (`flock FILE`).
    Lock,
    /// The new root (`chroot NEWROOT`).
    Root,
}

pub struct Wrapper {
    pub names: &'static [&'static str],
    pub opts: &'static [(&'static str, W)],
    pub leads: &'static [Lead],
    pub rest: Rest,
}

use W::*;

const fn wrapper(
    names: &'static [&'static str],
    opts: &'static [(&'static str, W)],
    leads: &'static [Lead],
) -> Wrapper {
    Wrapper {
        names,
        opts,
        leads,
        rest: Rest::Command,
    }
}

const SUDO: &[(&str, W)] = &[
    ("-u", Value), ("--user", Value), ("-g", Value), ("--group", Value), ("-C", Value),
    ("--close-from", Value), ("-D", Chdir), ("--chdir", Chdir), ("-R", Root), ("--chroot", Root),
    ("-h", Value), ("--host", Value), ("-p", Value), ("--prompt", Value), ("-r", Value),
    ("--role", Value), ("-t", Value), ("--type", Value), ("-T", Value),
    ("--command-timeout", Value), ("-U", Value), ("--other-user", Value), ("--preserve-env", Glued),
    ("-E", Flag), ("-H", Flag), ("-n", Flag), ("-S", Flag), ("-s", Flag), ("-i", Flag),
    ("-b", Flag), ("-A", Flag), ("-k", Flag), ("-P", Flag), ("-l", NoCommand), ("-v", NoCommand),
    ("-K", NoCommand), ("-V", NoCommand),
];

const ENV: &[(&str, W)] = &[
    ("-i", Flag), ("--ignore-environment", Flag), ("-0", Flag), ("--null", Flag), ("-u", Value),
    ("--unset", Value), ("-C", Chdir), ("--chdir", Chdir), ("-S", Split), ("--split-string", Split),
    ("--block-signal", Glued), ("--default-signal", Glued), ("--ignore-signal", Glued),
    ("--list-signal-handling", Flag), ("-v", Flag), ("--debug", Flag),
];

const NICE: &[(&str, W)] = &[("-n", Value), ("--adjustment", Value)];

const TIMEOUT: &[(&str, W)] = &[
    ("--preserve-status", Flag), ("--foreground", Flag), ("-k", Value), ("--kill-after", Value),
    ("-s", Value), ("--signal", Value), ("-v", Flag), ("--verbose", Flag),
];

const STDBUF: &[(&str, W)] = &[
    ("-i", Value), ("--input", Value), ("-o", Value), ("--output", Value), ("-e", Value),
    ("--error", Value),
];

const SETSID: &[(&str, W)] = &[
    ("-c", Flag), ("--ctty", Flag), ("-f", Flag), ("--fork", Flag), ("-w", Flag), ("--wait", Flag),
];

const FLOCK: &[(&str, W)] = &[
    ("-s", Flag), ("--shared", Flag), ("-x", Flag), ("--exclusive", Flag), ("-u", Flag),
    ("--unlock", Flag), ("-n", Flag), ("--nonblock", Flag), ("-w", Value), ("--timeout", Value),
    ("-E", Value), ("--conflict-exit-code", Value), ("-o", Flag), ("--close", Flag), ("-c", Script),
    ("--command", Script), ("-F", Flag), ("--no-fork", Flag), ("--verbose", Flag),
];

const STRACE: &[(&str, W)] = &[
    ("-e", Value), ("-E", Value), ("--env", Value), ("-p", Value), ("--attach", Value),
    ("-u", Value), ("--user", Value), ("-b", Value), ("--detach-on", Value), ("-I", Value),
    ("-P", Value), ("--trace-path", Value), ("-a", Value), ("-o", Writes), ("--output", Writes),
    ("-s", Value), ("-X", Value), ("-O", Value), ("-S", Value), ("-U", Value), ("-D", Flag),
    ("-f", Flag), ("-i", Flag), ("-k", Flag), ("-n", Flag), ("-A", Flag), ("-q", Flag),
    ("-r", Flag), ("-t", Flag), ("-T", Flag), ("-v", Flag), ("-x", Flag), ("-y", Flag),
    ("-Y", Flag), ("-c", Flag), ("-C", Flag), ("-w", Flag), ("-z", Flag), ("-Z", Flag),
];

const LTRACE: &[(&str, W)] = &[
    ("-o", Writes), ("--output", Writes), ("-e", Value), ("-p", Value), ("-s", Value),
    ("-u", Value), ("-n", Value), ("-a", Value), ("-A", Value), ("-D", Value), ("-F", Reads),
    ("-l", Value), ("--library", Value), ("-x", Value), ("-L", Flag), ("-f", Flag), ("-S", Flag),
    ("-t", Flag), ("-T", Flag), ("-r", Flag), ("-i", Flag), ("-b", Flag), ("-c", Flag),
    ("-C", Flag), ("-w", Value),
];

const SCRIPT: &[(&str, W)] = &[
    ("-I", Writes), ("--log-in", Writes), ("-O", Writes), ("--log-out", Writes), ("-B", Writes),
    ("--log-io", Writes), ("-T", Writes), ("--log-timing", Writes), ("-t", Glued),
    ("--timing", Glued), ("-m", Value), ("--logging-format", Value), ("-a", Flag),
    ("--append", Flag), ("-c", Script), ("--command", Script), ("-e", Flag), ("--return", Flag),
    ("-f", Flag), ("--flush", Flag), ("--force", Flag), ("-E", Value), ("--echo", Value),
    ("-o", Value), ("--output-limit", Value), ("-q", Flag), ("--quiet", Flag),
];

const SU: &[(&str, W)] = &[
    ("-m", Flag), ("-p", Flag), ("--preserve-environment", Flag), ("-w", Value),
    ("--whitelist-environment", Value), ("-g", Value), ("--group", Value), ("-G", Value),
    ("--supp-group", Value), ("-", Flag), ("-l", Flag), ("--login", Flag), ("-c", Script),
    ("--command", Script), ("--session-command", Script), ("-f", Flag), ("--fast", Flag),
    ("-s", Value), ("--shell", Value), ("-P", Flag), ("--pty", Flag), ("-u", Value),
    ("--user", Value),
];

const DOAS: &[(&str, W)] = &[
    ("-u", Value), ("-C", NoCommand), ("-n", Flag), ("-s", Flag), ("-L", NoCommand),
];

const UNSHARE: &[(&str, W)] = &[
    ("-m", Glued), ("--mount", Glued), ("-u", Glued), ("--uts", Glued), ("-i", Glued),
    ("--ipc", Glued), ("-n", Glued), ("--net", Glued), ("-p", Glued), ("--pid", Glued),
    ("-U", Glued), ("--user", Glued), ("-C", Glued), ("--cgroup", Glued), ("-T", Glued),
    ("--time", Glued), ("-f", Flag), ("--fork", Flag), ("--map-user", Value),
    ("--map-group", Value), ("-r", Flag), ("--map-root-user", Flag), ("-c", Flag),
    ("--map-current-user", Flag), ("--map-auto", Flag), ("--map-users", Value),
    ("--map-groups", Value), ("--kill-child", Glued), ("--mount-proc", Glued),
    ("--propagation", Value), ("--setgroups", Value), ("--keep-caps", Flag), ("-R", Root),
    ("--root", Root), ("-w", Chdir), ("--wd", Chdir), ("-S", Value), ("--setuid", Value),
    ("-G", Value), ("--setgid", Value), ("--monotonic", Value), ("--boottime", Value),
];

const NSENTER: &[(&str, W)] = &[
    ("-a", Flag), ("--all", Flag), ("-t", Value), ("--target", Value), ("-m", Glued),
    ("--mount", Glued), ("-u", Glued), ("--uts", Glued), ("-i", Glued), ("--ipc", Glued),
    ("-n", Glued), ("--net", Glued), ("-p", Glued), ("--pid", Glued), ("-C", Glued),
    ("--cgroup", Glued), ("-U", Glued), ("--user", Glued), ("-T", Glued), ("--time", Glued),
    ("-S", Value), ("--setuid", Value), ("-G", Value), ("--setgid", Value),
    ("--preserve-credentials", Flag), ("-r", Root), ("--root", Root), ("-w", Chdir),
    ("--wd", Chdir), ("-W", Chdir), ("--wdns", Chdir), ("-F", Flag), ("--no-fork", Flag),
    ("-Z", Flag), ("--follow-context", Flag),
];

const TASKSET: &[(&str, W)] = &[
    ("-a", Flag), ("--all-tasks", Flag), ("-p", NoCommand), ("--pid", NoCommand), ("-c", Flag),
    ("--cpu-list", Flag),
];

const CHRT: &[(&str, W)] = &[
    ("-b", Flag), ("--batch", Flag), ("-d", Flag), ("--deadline", Flag), ("-f", Flag),
    ("--fifo", Flag), ("-i", Flag), ("--idle", Flag), ("-o", Flag), ("--other", Flag), ("-r", Flag),
    ("--rr", Flag), ("-R", Flag), ("--reset-on-fork", Flag), ("-T", Value),
    ("--sched-runtime", Value), ("-P", Value), ("--sched-period", Value), ("-D", Value),
    ("--sched-deadline", Value), ("-a", Flag), ("--all-tasks", Flag), ("-m", NoCommand),
    ("--max", NoCommand), ("-p", NoCommand), ("--pid", NoCommand), ("-v", Flag),
    ("--verbose", Flag),
];

const IONICE: &[(&str, W)] = &[
    ("-c", Value), ("--class", Value), ("-n", Value), ("--classdata", Value), ("-p", NoCommand),
    ("--pid", NoCommand), ("-P", NoCommand), ("--pgid", NoCommand), ("-t", Flag),
    ("--ignore", Flag), ("-u", NoCommand), ("--uid", NoCommand),
];

const CHROOT: &[(&str, W)] = &[
    ("--groups", Value), ("--userspec", Value), ("--skip-chdir", Flag),
];

const FAKEROOT: &[(&str, W)] = &[
    ("-l", Value), ("--lib", Value), ("-f", Value), ("--faked", Value), ("-i", Reads),
    ("-s", Writes), ("-u", Flag), ("--unknown-is-real", Flag), ("-b", Value), ("--fd-base", Value),
];

const WATCH: &[(&str, W)] = &[
    ("-b", Flag), ("--beep", Flag), ("-c", Flag), ("--color", Flag), ("-C", Flag),
    ("--no-color", Flag), ("-d", Glued), ("--differences", Glued), ("-e", Flag),
    ("--errexit", Flag), ("-g", Flag), ("--chgexit", Flag), ("-q", Value), ("--equexit", Value),
    ("-n", Value), ("--interval", Value), ("-p", Flag), ("--precise", Flag), ("-t", Flag),
    ("--no-title", Flag), ("-w", Flag), ("--no-wrap", Flag), ("-x", Exec), ("--exec", Exec),
];

const XARGS: &[(&str, W)] = &[
    ("-0", Flag), ("--null", Flag), ("-a", Reads), ("--arg-file", Reads), ("-d", Value),
    ("--delimiter", Value), ("-E", Value), ("-e", Glued), ("--eof", Glued), ("-I", Value),
    ("-i", Glued), ("--replace", Glued), ("-L", Value), ("--max-lines", Value), ("-l", Glued),
    ("-n", Value), ("--max-args", Value), ("-o", Flag), ("--open-tty", Flag), ("-P", Value),
    ("--max-procs", Value), ("-p", Flag), ("--interactive", Flag), ("--process-slot-var", Value),
    ("-r", Flag), ("--no-run-if-empty", Flag), ("-s", Value), ("--max-chars", Value),
    ("--show-limits", Flag), ("-t", Flag), ("--verbose", Flag), ("-x", Flag), ("--exit", Flag),
];

const TIME: &[(&str, W)] = &[
    ("-f", Value), ("--format", Value), ("-o", Writes), ("--output", Writes), ("-a", Flag),
    ("--append", Flag), ("-p", Flag), ("--portability", Flag), ("-v", Flag), ("--verbose", Flag),
    ("-q", Flag), ("--quiet", Flag),
];

const EXEC: &[(&str, W)] = &[("-a", Value), ("-c", Flag), ("-l", Flag)];

const COMMAND: &[(&str, W)] = &[("-p", Flag), ("-v", NoCommand), ("-V", NoCommand)];

/// The table. Names are matched as for [`super::commands::COMMANDS`].
pub const WRAPPERS: &[Wrapper] = &[
    wrapper(&["sudo"], SUDO, &[]),
    Wrapper { names: &["sudoedit"], opts: SUDO, leads: &[], rest: Rest::Edited },
    wrapper(&["doas"], DOAS, &[]),
    wrapper(&["env"], ENV, &[]),
    wrapper(&["nice"], NICE, &[]),
    wrapper(&["nohup", "builtin"], &[], &[]),
    wrapper(&["timeout"], TIMEOUT, &[Lead::Value]),
    wrapper(&["stdbuf"], STDBUF, &[]),
    wrapper(&["setsid"], SETSID, &[]),
    wrapper(&["flock"], FLOCK, &[Lead::Lock]),
    wrapper(&["strace"], STRACE, &[]),
    wrapper(&["ltrace"], LTRACE, &[]),
    // Without `-c` it starts an interactive shell; its operand is the
    // typescript written.
    Wrapper { names: &["script"], opts: SCRIPT, leads: &[], rest: Rest::Edited },
    Wrapper { names: &["su", "runuser"], opts: SU, leads: &[], rest: Rest::User },
    wrapper(&["unshare"], UNSHARE, &[]),
    wrapper(&["nsenter"], NSENTER, &[]),
    wrapper(&["taskset"], TASKSET, &[Lead::Value]),
    wrapper(&["chrt"], CHRT, &[Lead::Value]),
    wrapper(&["ionice"], IONICE, &[]),
    wrapper(&["chroot"], CHROOT, &[Lead::Root]),
    wrapper(&["fakeroot"], FAKEROOT, &[]),
    Wrapper { names: &["watch"], opts: WATCH, leads: &[], rest: Rest::Joined },
    Wrapper { names: &["xargs"], opts: XARGS, leads: &[], rest: Rest::Xargs },
    wrapper(&["time"], TIME, &[]),
    wrapper(&["exec"], EXEC, &[]),
    wrapper(&["command"], COMMAND, &[]),
    // `busybox APPLET ARGS`: the applet is the command.
    wrapper(&["busybox", "toybox"], &[], &[]),
];

