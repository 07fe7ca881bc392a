//! One part of the `sandbox` section Claude's renderer builds (see
//! `render`): borrowed from the policy, turned into a JSON value for `-w`
//! and `diff`, or written as it stands for the preview, with the same text.

use serde_json::Value;

use crate::pyjson::{self, Out};

/// A part of the generated `sandbox` section, borrowed from the policy:
/// the section is built for `-w` and `diff` ([`Part::to_value`]) and
/// written as it stands for the preview ([`Part::write`]).
pub enum Part<'a> {
    /// A value of the srt settings or of an override, as it is.
    Value(&'a Value),
    /// A list of strings of the policy: `network.allowedDomains` (the
    /// allowed domains of the rules), `filesystem.allowRead`.
    Strings(Vec<&'a str>),
    /// An object of parts, in order.
    Object(Vec<(&'a str, Part<'a>)>),
    /// `[]`: a managed path list.
    EmptyList,
}

impl Part<'_> {
    pub fn to_value(&self) -> Value {
        match self {
            Part::Value(value) => (*value).clone(),
            Part::Strings(domains) => Value::Array(
                domains
                    .iter()
                    .map(|d| Value::String(d.to_string()))
                    .collect(),
            ),
            Part::Object(parts) => Value::Object(
                parts
                    .iter()
                    .map(|(k, part)| (k.to_string(), part.to_value()))
                    .collect(),
            ),
            Part::EmptyList => Value::Array(Vec::new()),
        }
    }

    /// `to_pretty(&self.to_value())` at `depth`, without building it.
    pub fn write<O: Out + ?Sized>(&self, out: &mut O, depth: usize) {
        match self {
            Part::Value(value) => pyjson::write_pretty_at(out, value, depth),
            Part::Strings(domains) => {
                pyjson::write_container(out, depth, ['[', ']'], domains, |out, d, _| {
                    pyjson::write_str(out, d)
                })
            }
            Part::Object(parts) => {
                pyjson::write_container(out, depth, ['{', '}'], parts, |out, (k, part), d| {
                    pyjson::write_key(out, k);
                    part.write(out, d);
                })
            }
            Part::EmptyList => out.push_str("[]"),
        }
    }
}
