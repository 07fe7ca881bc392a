//! The fragment text.

use std::path::Path;

use serde_json::json;

use super::*;
use crate::source::SourceKind;

fn origin(at: &str) -> Origin {
    Origin::new(Path::new("/home/u/.agent/settings.json"), at)
}

/// Strict JSONC: a comment per entry naming its origin, a note above it,
/// the header first; it parses as the fragment it means.
#[test]
fn a_fragment_names_each_entrys_origin_and_parses_as_jsonc() {
    let entries = vec![
        Entry::listed(List::DenyRead, "~/.aws", origin("/permissions/deny/0")),
        Entry::listed(List::AllowedDomains, "github.com", origin("/x/0")).noted("a note"),
        Entry::setting("/network/allowLocalBinding", json!(true), origin("/y")),
        Entry::listed(List::BashDeny, "rm", origin("/z")),
    ];
    let text =
        fragment::render(SourceKind::Srt, &entries, "Imported.", Path::new("/home/u")).unwrap();
    assert_eq!(
        text,
        r#"// Imported.
{
  "filesystem": {
    "denyRead": [
      "~/.aws" // ~/.agent/settings.json /permissions/deny/0
    ]
  },
  "network": {
    "allowedDomains": [
      // a note
      "github.com" // ~/.agent/settings.json /x/0
    ],
    "allowLocalBinding": true // ~/.agent/settings.json /y
  }
}
"#
    );
    let value = crate::fragment::parse(&text, Path::new("f.jsonc")).unwrap();
    assert_eq!(
        value,
        json!({"filesystem": {"denyRead": ["~/.aws"]},
               "network": {"allowedDomains": ["github.com"], "allowLocalBinding": true}})
    );
    let bash = fragment::render(SourceKind::Bash, &entries, "h", Path::new("/home/u")).unwrap();
    assert_eq!(
        crate::fragment::parse(&bash, Path::new("b.jsonc")).unwrap(),
        json!({"deny": ["rm"]})
    );
    assert_eq!(
        fragment::render(SourceKind::Bash, &entries[..3], "h", Path::new("/")),
        None
    );
}
