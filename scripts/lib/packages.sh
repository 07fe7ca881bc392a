# Sourced by the install scripts. `need_commands CMD=PACKAGE ...` installs,
# with apt-get, the Debian package of each command that is not on PATH, and
# does nothing (not even `apt-get update`) when all are there. Messages go
# through the caller's `log`.
need_commands() {
    local pair missing=()
    for pair in "$@"; do
        command -v "${pair%%=*}" >/dev/null 2>&1 || missing+=("${pair#*=}")
    done
    ((${#missing[@]})) || return 0
    if ! command -v apt-get >/dev/null 2>&1; then
        log "missing ${missing[*]} and no apt-get: install them by hand"
        exit 1
    fi
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then sudo=(sudo); fi
    log "apt-get install ${missing[*]}"
    "${sudo[@]}" apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
}
