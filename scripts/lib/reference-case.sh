# Shared by the unit-test recorders (src/agent/*/testdata/record.sh): build a
# scratch HOME for one test case and run the reference twsrt in it.
#
#   case_home CASE_DIR TABLES   sets $home and $cfg: a fresh HOME whose
#                               config.toml registers CASE_DIR's srt.jsonc and
#                               bash.jsonc as the fragments of profile
#                               "default", followed by TABLES (the [targets]
#                               and [sandbox_overrides] the recorder wants);
#                               `{D}` in srt.jsonc becomes the HOME path; the
#                               paths in CASE_DIR/home.txt (`dir P` / `file P`)
#                               are created under HOME
#   run ARGS...                 the reference ($ref) in that HOME

case_home() {
    home=$(mktemp -d)
    cfg="$home/.config/twsrt"
    mkdir -p "$cfg/srt" "$cfg/bash"
    sed "s#{D}#$home#g" "$1/srt.jsonc" >"$cfg/srt/base.jsonc"
    cp "$1/bash.jsonc" "$cfg/bash/base.jsonc"
    cat >"$cfg/config.toml" <<TOML
schema_version = 1
default_profile = "default"

[sources.srt.fragments.base]
path = "srt/base.jsonc"

[sources.bash.fragments.base]
path = "bash/base.jsonc"

[profiles.default]
srt = ["base"]
bash = ["base"]

$2
TOML
    if [ -f "$1/home.txt" ]; then
        while read -r kind path; do
            case $kind in
                dir) mkdir -p "$home/$path" ;;
                file) printf 'secret\n' >"$home/$path" ;;
            esac
        done <"$1/home.txt"
    fi
}

run() { (cd "$home" && HOME="$home" "$ref" -c "$cfg/config.toml" "$@"); }
