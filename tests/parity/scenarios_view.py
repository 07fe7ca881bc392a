"""Parity scenarios of `show`, `profiles` and `edit` (twsrt 3.3.3 F1-F3)."""

# The profile table: 3.3.3 prints a box-drawn table even in a pipe; the port
# prints plain aligned text there (the issue asks for it), so stdout is
# compared by cells. An unresolvable profile's reason is the port's own
# sentence: compared by its prefix and the names it quotes.
TABLE = ["# 3.3.3 draws a box in a pipe too; the port prints plain columns (issue 17).",
         "stdout-table-cells",
         "stdout-table-cell-prose invalid: "]

BROKEN_SRT = '{\n  "filesystem": {\n    "denyRead": ["~/.ssh",]\n  }\n}\n'

# Editors for `edit`: scripts in HOME that log their arguments to a file that
# exists before (a file the editor creates would get the reference's umask 077).
LOG_ARGS = '#!/bin/sh\necho "$(basename "$0") $*" >> "$HOME/edited"\n'


TERMINAL = ["# The port starts a terminal editor only with a terminal on stdin (doc/compatibility.md); the reference was recorded without one.", "port-stdin-terminal"]


def editors(sc, *names, script=LOG_ARGS):
    files = {"edited": ""}
    files.update({f"bin/{n}": script for n in names})
    return dict(files=files, chmod={f"bin/{n}": 0o755 for n in names})


def mixin_config(sc, **kw):
    return sc.cfg(profiles={"default": {"srt": ["base"], "bash": ["base"]},
                            "mixin": {"bash": ["base"]}}, **kw)


def work_cfg(sc, **kw):
    """work_home's config.toml with other cfg() arguments."""
    return sc.cfg(
        srt={"base": "srt/base.jsonc", "work": "srt/work.jsonc", "extra": "srt/extra.jsonc"},
        bash={"base": "bash/base.jsonc", "work": "bash/work.jsonc"},
        profiles={
            "default": {"srt": ["base"], "bash": ["base"]},
            "work": {"extends": ["default"], "srt": ["work"], "bash": ["work"]},
            "extra": {"srt": ["extra", "base"], "bash": ["base"]},
            "combined": {"extends": ["work", "extra"], "srt": ["base"], "bash": []},
        }, **kw)


def register(sc):
    add, TW = sc.add, sc.TW
    work = sc.work_home()

    # -- show ---------------------------------------------------------------
    add("view_show_default", ["show"])
    add("view_show_srt", ["show", "srt"])
    add("view_show_bash", ["show", "bash"])
    add("view_show_profile_srt", ["show", "-p", "work"], files=work, base=False)
    add("view_show_profile_bash", ["show", "bash", "-p", "combined"], files=work, base=False)
    add("view_show_default_profile_setting", ["show", "bash"], base=False,
        files={**work, TW + "config.toml": work_cfg(sc, default_profile="work")})
    # byte for byte what -w wrote (prep), the output files untouched
    add("view_show_after_write", ["show"], prep=[["generate", "-w"]])
    add("view_show_default_output_path", ["show"],
        files={TW + "config.toml": sc.cfg(srt_output=None, bash_output=None)})
    add("view_show_bash_not_configured", ["show", "bash"],
        files={TW + "config.toml": sc.cfg(bash=False)})
    add("view_show_unknown_kind", ["show", "foo"])
    add("view_show_all_is_no_kind", ["show", "all"], files={TW + "config.toml": sc.cfg(bash=False)})
    add("view_show_compile_error", ["show"], files={TW + "srt/base.jsonc": BROKEN_SRT})
    add("view_show_compile_error_before_kind", ["show", "foo"],
        files={TW + "srt/base.jsonc": BROKEN_SRT})
    add("view_show_compile_error_in_other_kind", ["show", "bash"],
        files={TW + "srt/base.jsonc": BROKEN_SRT})
    add("view_show_unknown_profile", ["show", "-p", "nope"], files=work, base=False)
    add("view_show_unresolvable_profile", ["show", "-p", "mixin"],
        files={TW + "config.toml": mixin_config(sc)})
    add("view_show_config_missing", ["show"], base=False)

    # -- profiles -------------------------------------------------------------
    add("view_profiles_single", ["profiles"], divergence=TABLE)
    add("view_profiles_inheritance", ["profiles"], files=work, base=False, divergence=TABLE)
    add("view_profiles_default_elsewhere", ["profiles"], base=False, divergence=TABLE,
        files={**work, TW + "config.toml": work_cfg(sc, default_profile="extra")})
    add("view_profiles_invalid", ["profiles"], divergence=TABLE,
        files={TW + "config.toml": mixin_config(sc)})
    add("view_profiles_no_bash", ["profiles"], divergence=TABLE, files={
        TW + "config.toml": sc.cfg(bash=False, srt={"base": "srt/base.jsonc", "work": "srt/work.jsonc"},
                                   profiles={"default": {"srt": ["base"]},
                                             "work": {"extends": ["default"], "srt": ["work", "base"]}}),
        TW + "srt/work.jsonc": sc.SRT_WORK})
    # kind columns follow config.toml's order: [sources.bash] first here
    add("view_profiles_kind_order", ["profiles"], divergence=TABLE, files={
        TW + "config.toml": 'schema_version = 1\ndefault_profile = "default"\n\n'
                            '[sources.bash.fragments.base]\npath = "bash/base.jsonc"\n\n'
                            '[sources.srt.fragments.base]\npath = "srt/base.jsonc"\n\n'
                            '[profiles.default]\nsrt = ["base"]\nbash = ["base"]\n'})
    # a fragment that does not parse is nothing to the listing (it compiles nothing)
    add("view_profiles_broken_fragment", ["profiles"], divergence=TABLE,
        files={TW + "srt/base.jsonc": BROKEN_SRT})
    add("view_profiles_config_error", ["profiles"],
        files={TW + "config.toml": sc.cfg().replace("[profiles.default]", "[profiles.default\n")})
    add("view_profiles_config_missing", ["profiles"], base=False)

    # -- edit -n: which fragments --------------------------------------------
    add("view_edit_n_all", ["edit", "-n"], files=work, base=False)
    add("view_edit_n_srt", ["edit", "-n", "srt"], files=work, base=False)
    add("view_edit_n_bash", ["edit", "--dry-run", "bash"], files=work, base=False)
    add("view_edit_n_profile", ["edit", "-n", "-p", "work"], files=work, base=False)
    add("view_edit_n_profile_inherited_kind", ["edit", "-n", "bash", "-p", "combined"], files=work, base=False)
    add("view_edit_n_one_file_twice", ["edit", "-n"], files={
        TW + "config.toml": sc.cfg(srt={"base": "srt/base.jsonc", "again": "srt/base.jsonc"})})
    add("view_edit_n_missing_fragment", ["edit", "-n"], files={**work, TW + "srt/extra.jsonc": None},
        base=False)
    add("view_edit_n_broken_fragment", ["edit", "-n"], files={TW + "srt/base.jsonc": BROKEN_SRT})
    add("view_edit_n_unknown_kind", ["edit", "-n", "foo"])
    add("view_edit_n_bash_not_configured", ["edit", "-n", "bash"],
        files={TW + "config.toml": sc.cfg(bash=False)})
    add("view_edit_n_unknown_profile", ["edit", "-n", "-p", "nope"])
    add("view_edit_n_unresolvable_profile", ["edit", "-n", "-p", "mixin"],
        files={TW + "config.toml": mixin_config(sc)})
    add("view_edit_n_unresolvable_default", ["edit", "-n"],
        files={TW + "config.toml": mixin_config(sc, default_profile="mixin")})
    add("view_edit_config_missing", ["edit", "-n"], base=False)

    # -- edit: the editor and the drift report ----------------------------------
    true = {"EDITOR": "true"}
    add("view_edit_no_drift", ["edit"], env=true, prep=[["generate", "-w"]])
    add("view_edit_outputs_missing", ["edit"], env=true)
    add("view_edit_profile_no_drift", ["edit", "-p", "work"], env=true, files=work, base=False,
        prep=[["generate", "-w", "-p", "work"]])
    # the default profile is compared, whatever the outputs were written for
    add("view_edit_default_profile_drift", ["edit", "bash"], env=true, files=work, base=False,
        prep=[["generate", "-w", "-p", "work"]])
    add("view_edit_output_reformatted", ["edit"], env=true, prep=[["generate", "-w"]],
        edits={".srt-settings.json": lambda t: t.replace("\n", " ").replace("  ", "") + "\n"})
    add("view_edit_output_reordered", ["edit"], env=true, prep=[["generate", "-w"]],
        edits={TW + "bash-rules.json": lambda t: t.replace('"git push",\n    "pip install"',
                                                          '"pip install",\n    "git push"')})
    add("view_edit_output_not_json", ["edit"], env=true, prep=[["generate", "-w"]],
        edits={".srt-settings.json": "not json\n"})
    sed_srt = '#!/bin/sh\nsed -i "s/pypi.org/pypi.example/" "$1"\n'
    add("view_edit_changes_srt", ["edit"], prep=[["generate", "-w"]],
        env={"EDITOR": "{HOME}/bin/ed-srt"}, **editors(sc, "ed-srt", script=sed_srt))
    sed_bash = '#!/bin/sh\nsed -i "s/\\"sudo\\"/\\"doas\\"/" "$2"\n'
    add("view_edit_changes_bash_only", ["edit"], prep=[["generate", "-w"]],
        env={"EDITOR": "{HOME}/bin/ed-bash"}, **editors(sc, "ed-bash", script=sed_bash))
    breaks = '#!/bin/sh\nprintf \'{ "filesystem": \' > "$1"\n'
    add("view_edit_compile_error_after", ["edit"], prep=[["generate", "-w"]],
        env={"EDITOR": "{HOME}/bin/ed-break"}, **editors(sc, "ed-break", script=breaks))
    add("view_edit_broken_fragment_still_opens", ["edit"], env=true,
        files={TW + "srt/base.jsonc": BROKEN_SRT})
    add("view_edit_missing_fragment", ["edit"], env=true, files={**work, TW + "srt/extra.jsonc": None},
        base=False)
    add("view_edit_editor_exit_status", ["edit"], env={"EDITOR": "sh -c 'exit 3'"},
        prep=[["generate", "-w"]])
    add("view_edit_editor_fails_still_reports", ["edit"], env={"EDITOR": "false"})
    add("view_edit_editor_missing", ["edit"], env={"EDITOR": "{HOME}/no/such-editor"})
    add("view_edit_bash_not_configured", ["edit", "bash"], env=true,
        files={TW + "config.toml": sc.cfg(bash=False)})

    # -- edit: the editor's command line (logged to ~/edited) ------------------
    ed = editors(sc, "vim", "nvim", "gvim", "vi")
    add("view_edit_vim_gets_tabs", ["edit", "-p", "work"], env={"EDITOR": "{HOME}/bin/vim"},
        files={**work, **ed["files"]}, chmod=ed["chmod"], base=False, divergence=TERMINAL)
    add("view_edit_nvim_gets_tabs", ["edit", "srt"], env={"EDITOR": "{HOME}/bin/nvim"}, **ed, divergence=TERMINAL)
    add("view_edit_gvim_gets_tabs", ["edit"], env={"EDITOR": "{HOME}/bin/gvim"}, **ed)
    add("view_edit_vim_with_args_unchanged", ["edit"], env={"EDITOR": "{HOME}/bin/vim -O"}, **ed, divergence=TERMINAL)
    add("view_edit_vi_no_tabs", ["edit"], env={"EDITOR": "{HOME}/bin/vi"}, **ed, divergence=TERMINAL)
    add("view_edit_editor_shell_words", ["edit", "bash"], files={"edited": ""},
        env={"EDITOR": """sh -c 'printf "%s|%s\\n" "$0" "$1" >> "$HOME/edited"' 'my editor'"""})
