//! config.toml layouts and what the reference made of each: (existing file,
//! merged file with `{P}` for the generated `[permissions.twsrt]` tree).
//! Recorded from twsrt 1.0.0; twsrt 3.3.3 merges every one the same way
//! (checked with the `merge` case of testdata, whose fragment is `{P}`).
//! Not here: a comment heading the first table, where twsrt deliberately
//! differs (`COMMENT_HEADS_TABLE`, doc/compatibility.md row 35).

pub const CASES: &[(&str, &str)] = &[
    (
        "# My codex config\nmodel = \"o3\"   # inline comment\napproval_policy = \"never\"\n\n\n# reasoning\nmodel_reasoning_effort = \"high\"\n\n[mcp_servers.github]\ncommand = \"npx\"\nargs = [\"-y\", \"@modelcontextprotocol/server-github\"]\nenv = { GITHUB_TOKEN = \"ghp_SECRET123\" }\n\n[permissions.other]\nextends = \":read-only\"\n\n[permissions.twsrt]\nextends = \":workspace\"\ndescription = \"old\"\n# stale comment inside twsrt\n\n[permissions.twsrt.filesystem]\n\"/old\" = \"deny\"\n\n[projects.\"/home/u/proj\"]\ntrust_level = \"trusted\"\n\n[permissions.third]\nextends = \":workspace\"\n",
        "# My codex config\nmodel = \"o3\"   # inline comment\napproval_policy = \"on-request\"\n\n\n# reasoning\nmodel_reasoning_effort = \"high\"\ndefault_permissions = \"twsrt\"\napprovals_reviewer = \"user\"\nallow_login_shell = false\n\n[mcp_servers.github]\ncommand = \"npx\"\nargs = [\"-y\", \"@modelcontextprotocol/server-github\"]\nenv = { GITHUB_TOKEN = \"ghp_SECRET123\" }\n\n[permissions.other]\nextends = \":read-only\"\n\n{P}\n[projects.\"/home/u/proj\"]\ntrust_level = \"trusted\"\n\n[permissions.third]\nextends = \":workspace\"\n",
    ),
    (
        "model = \"o3\"\n# trailing comment",
        "model = \"o3\"\n# trailing comment\ndefault_permissions = \"twsrt\"\napproval_policy = \"on-request\"\napprovals_reviewer = \"user\"\nallow_login_shell = false\n\n{P}",
    ),
    (
        "[mcp_servers.x]\ncommand = \"y\"\n",
        "default_permissions = \"twsrt\"\napproval_policy = \"on-request\"\napprovals_reviewer = \"user\"\nallow_login_shell = false\n\n[mcp_servers.x]\ncommand = \"y\"\n\n{P}",
    ),
    (
        "model = \"o3\"",
        "model = \"o3\"\ndefault_permissions = \"twsrt\"\napproval_policy = \"on-request\"\napprovals_reviewer = \"user\"\nallow_login_shell = false\n\n{P}",
    ),
    (
        "\n\n",
        "default_permissions = \"twsrt\"\napproval_policy = \"on-request\"\napprovals_reviewer = \"user\"\nallow_login_shell = false\n\n\n{P}",
    ),
    (
        "model = \"o3\"\n[mcp_servers.x]\ncommand = \"y\"",
        "model = \"o3\"\ndefault_permissions = \"twsrt\"\napproval_policy = \"on-request\"\napprovals_reviewer = \"user\"\nallow_login_shell = false\n\n[mcp_servers.x]\ncommand = \"y\"\n{P}",
    ),
    (
        "model = \"o3\"\n\n[permissions.other]\nextends = \":read-only\"\n\n[projects.\"/x\"]\ntrust_level = \"trusted\"\n",
        "model = \"o3\"\ndefault_permissions = \"twsrt\"\napproval_policy = \"on-request\"\napprovals_reviewer = \"user\"\nallow_login_shell = false\n\n[permissions.other]\nextends = \":read-only\"\n\n{P}[projects.\"/x\"]\ntrust_level = \"trusted\"\n",
    ),
    (
        "[permissions.twsrt]\nextends = \"x\"\n[permissions.twsrt.filesystem]\n\"/a\" = \"deny\"\n[projects.\"/x\"]\nt = 1\n\n[permissions.third]\nx=1\n",
        "default_permissions = \"twsrt\"\napproval_policy = \"on-request\"\napprovals_reviewer = \"user\"\nallow_login_shell = false\n\n{P}\n[projects.\"/x\"]\nt = 1\n\n[permissions.third]\nx=1\n",
    ),
    (
        "  approval_policy   =   \"never\"   # keep\n\"allow_login_shell\" = true #c2\ndefault_permissions='x'\n[profiles.a]\nsandbox_mode = \"workspace-write\"\n",
        "  approval_policy   =   \"on-request\"   # keep\n\"allow_login_shell\" = false #c2\ndefault_permissions=\"twsrt\"\napprovals_reviewer = \"user\"\n\n[profiles.a]\nsandbox_mode = \"workspace-write\"\n\n{P}",
    ),
    (
        "[permissions]\ntwsrt = 5\n",
        "default_permissions = \"twsrt\"\napproval_policy = \"on-request\"\napprovals_reviewer = \"user\"\nallow_login_shell = false\n\n[permissions]\n\n{P}",
    ),
    (
        "[[aot]]\nx = 1\n\n[[aot]]\nx = 2\n",
        "default_permissions = \"twsrt\"\napproval_policy = \"on-request\"\napprovals_reviewer = \"user\"\nallow_login_shell = false\n[[aot]]\nx = 1\n\n[[aot]]\nx = 2\n\n{P}",
    ),
    (
        "[mcp]\nx=1\n# end",
        "default_permissions = \"twsrt\"\napproval_policy = \"on-request\"\napprovals_reviewer = \"user\"\nallow_login_shell = false\n\n[mcp]\nx=1\n# end\n{P}",
    ),
    (
        "[permissions.other]\nx=1\n\n# Projects\n[projects.a]\ny=1\n",
        "default_permissions = \"twsrt\"\napproval_policy = \"on-request\"\napprovals_reviewer = \"user\"\nallow_login_shell = false\n\n[permissions.other]\nx=1\n\n# Projects\n\n{P}[projects.a]\ny=1\n",
    ),
    (
        "[[permissions.list]]\nx = 1\n\n[a]\nb=1\n",
        "default_permissions = \"twsrt\"\napproval_policy = \"on-request\"\napprovals_reviewer = \"user\"\nallow_login_shell = false\n\n[[permissions.list]]\nx = 1\n\n{P}[a]\nb=1\n",
    ),
    (
        "",
        "default_permissions = \"twsrt\"\napproval_policy = \"on-request\"\napprovals_reviewer = \"user\"\nallow_login_shell = false\n\n{P}",
    ),
];

/// A comment that runs into the first table's header heads that table:
/// the owned keys go before it (3.3.3 put them between the comment and the
/// table). (existing, merged) as above.
pub const COMMENT_HEADS_TABLE: &[(&str, &str)] = &[
    (
        "model = \"o3\"\n\n# MCP servers\n[mcp_servers.x]\ncommand = \"y\"\n",
        "model = \"o3\"\n\ndefault_permissions = \"twsrt\"\napproval_policy = \"on-request\"\napprovals_reviewer = \"user\"\nallow_login_shell = false\n\n# MCP servers\n[mcp_servers.x]\ncommand = \"y\"\n\n{P}",
    ),
    // No top-level key: a file header set off by a blank line stays first.
    (
        "# my codex config\n\n# MCP servers\n[mcp_servers.x]\ncommand = \"y\"\n",
        "# my codex config\n\ndefault_permissions = \"twsrt\"\napproval_policy = \"on-request\"\napprovals_reviewer = \"user\"\nallow_login_shell = false\n\n# MCP servers\n[mcp_servers.x]\ncommand = \"y\"\n\n{P}",
    ),
    // A comment after the last key and set off from the table stays with the key.
    (
        "model = \"o3\"\n# the model\n\n[mcp_servers.x]\ncommand = \"y\"\n",
        "model = \"o3\"\n# the model\n\ndefault_permissions = \"twsrt\"\napproval_policy = \"on-request\"\napprovals_reviewer = \"user\"\nallow_login_shell = false\n\n[mcp_servers.x]\ncommand = \"y\"\n\n{P}",
    ),
];

/// The blank lines between an old `[permissions.twsrt]` tree and the table
/// after it stay as they are (3.3.3 dropped them, or kept one, depending on
/// the old tree's shape, so that `generate -w` rewrote a file `diff` called
/// clean: doc/compatibility.md, row 61). (existing, merged) as above.
pub const GAP_AFTER_PROFILE: &[(&str, &str)] = &[
    (
        "# top\n[permissions.twsrt.filesystem]\n\"/a\" = \"deny\"\n\n\n[projects.\"/x\"]\ntrust_level = \"trusted\"\n",
        "# top\ndefault_permissions = \"twsrt\"\napproval_policy = \"on-request\"\napprovals_reviewer = \"user\"\nallow_login_shell = false\n\n{P}\n\n[projects.\"/x\"]\ntrust_level = \"trusted\"\n",
    ),
    (
        "[permissions.twsrt]\nextends = \"x\"\n\n\n[projects.\"/x\"]\ntrust_level = \"trusted\"\n",
        "default_permissions = \"twsrt\"\napproval_policy = \"on-request\"\napprovals_reviewer = \"user\"\nallow_login_shell = false\n\n{P}\n\n[projects.\"/x\"]\ntrust_level = \"trusted\"\n",
    ),
    // The first hour's file: an empty last sub-table, then the user's table.
    (
        "model = \"o3\"\n\n[permissions.twsrt]\nextends = \"x\"\n\n[permissions.twsrt.network.domains]\n\n[features]\nfoo = true\n",
        "model = \"o3\"\ndefault_permissions = \"twsrt\"\napproval_policy = \"on-request\"\napprovals_reviewer = \"user\"\nallow_login_shell = false\n\n{P}\n[features]\nfoo = true\n",
    ),
    // Trailing blank lines at the end of the file stay too.
    (
        "[permissions.twsrt]\nextends = \"x\"\n[permissions.twsrt.filesystem]\n\"/a\" = \"deny\"\n\n",
        "default_permissions = \"twsrt\"\napproval_policy = \"on-request\"\napprovals_reviewer = \"user\"\nallow_login_shell = false\n\n{P}\n",
    ),
];
