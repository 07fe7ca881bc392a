#!/usr/bin/env python3
"""Read the settings schema Claude Code applies out of its executable.

Claude Code checks every settings file it loads against a zod schema built
in its bundled JavaScript (the object of key -> `()=>schema` builders whose
first entry is `$schema`, "JSON Schema reference for Claude Code
settings"). A value that does not fit it makes Claude Code drop the whole
file (doc/clients.md, "The settings schema"). This script finds that
object in the executable, resolves the minified zod builders by keys whose
types are known (`respectGitignore` is a boolean, `cleanupPeriodDays` a
number, ...), and writes the key -> type table twsrt checks files against
(src/agent/claude/settings_schema.json):

  {"t": "any"}                       not checked (anything the reader does
                                     not recognise, every `.catch(...)`
                                     schema, which keeps the file and drops
                                     the bad value, and every refinement)
  {"t": "bool"} / {"t": "string"}
  {"t": "number", "int": b, "min": x, "gt": x, "max": x, "lt": x}
  {"t": "literal", "v": value}
  {"t": "enum", "v": [...], "alias": {"from": "to"}}
  {"t": "array", "of": node} / {"t": "record", "of": node}
  {"t": "object", "keys": {k: node}} (unknown keys are kept, not refused)
  {"t": "union", "of": [node, ...]}
  "null": true on a node that also takes null

Usage: claude-settings-schema.py CLAUDE_EXECUTABLE VERSION > settings_schema.json
"""

from __future__ import annotations

import json
import re
import sys

REGEX_PREV = set("(,=:[!&|?{};+-*%<>~^")
PAIRS = {"(": ")", "[": "]", "{": "}"}


def skip_string(s: str, i: int) -> int:
    q = s[i]
    i += 1
    while i < len(s):
        c = s[i]
        if c == "\\":
            i += 2
            continue
        if q == "`" and c == "$" and s[i + 1:i + 2] == "{":
            i = match(s, i + 1) + 1
            continue
        if c == q:
            return i + 1
        i += 1
    raise ValueError("unterminated string")


def skip_regex(s: str, i: int) -> int:
    i += 1
    in_class = False
    while i < len(s):
        c = s[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            in_class = True
        elif c == "]":
            in_class = False
        elif c == "/" and not in_class:
            i += 1
            while i < len(s) and s[i].isalpha():
                i += 1
            return i
        i += 1
    raise ValueError("unterminated regex")


def prev_sig(s: str, i: int) -> str:
    j = i - 1
    while j >= 0 and s[j] in " \n\t":
        j -= 1
    return s[j] if j >= 0 else "("


def is_regex_start(s: str, i: int) -> bool:
    return s[i] == "/" and prev_sig(s, i) in REGEX_PREV and s[i + 1:i + 2] not in ("/", "*")


def match(s: str, i: int) -> int:
    """The index of the bracket that closes the one at s[i]."""
    stack = [PAIRS[s[i]]]
    i += 1
    while i < len(s):
        c = s[i]
        if c in "\"'`":
            i = skip_string(s, i)
            continue
        if is_regex_start(s, i):
            i = skip_regex(s, i)
            continue
        if c in PAIRS:
            stack.append(PAIRS[c])
        elif c in ")]}":
            if c != stack[-1]:
                raise ValueError(f"unbalanced at {i}: {s[max(0, i - 80):i + 1]}")
            stack.pop()
            if not stack:
                return i
        i += 1
    raise ValueError("unbalanced")


def split_top(s: str) -> list[str]:
    """s split on its top-level commas."""
    parts, start, i = [], 0, 0
    while i < len(s):
        c = s[i]
        if c in "\"'`":
            i = skip_string(s, i)
            continue
        if is_regex_start(s, i):
            i = skip_regex(s, i)
            continue
        if c in PAIRS:
            i = match(s, i) + 1
            continue
        if c == ",":
            parts.append(s[start:i])
            start = i + 1
        i += 1
    parts.append(s[start:])
    return [p.strip() for p in parts if p.strip()]


ANY = {"t": "any"}
IDENT = r"[A-Za-z_$][\w$]*"


class Reader:
    def __init__(self, text: str, anchor: int) -> None:
        self.s, self.anchor = text, anchor
        self.b = self.calibrate()
        self.unresolved: set[str] = set()

    def key_expr(self, key: str) -> str:
        m = re.compile(r"[{,]" + re.escape(key) + r":\(\)=>").search(self.s, self.anchor)
        if not m:
            raise SystemExit(f"calibration key {key} not found")
        return self.s[m.end():m.end() + 200]

    def calibrate(self) -> dict[str, str]:
        """The minified name of each zod builder, read off keys of known type."""
        def head(key: str, pattern: str = r"(" + IDENT + r")\(") -> str:
            m = re.match(pattern, self.key_expr(key))
            if not m:
                raise SystemExit(f"calibration key {key}: unexpected {self.key_expr(key)[:60]}")
            return m.group(1)
        b = {
            head("$schema"): "string",
            head("respectGitignore"): "bool",
            head("cleanupPeriodDays"): "number",
            head("fileSuggestion"): "object",
            head("fileSuggestion", IDENT + r"\(\{type:(" + IDENT + r")\("): "literal",
            head("defaultShell"): "enum",
            head("enabledMcpjsonServers"): "array",
            head("modelOverrides"): "record",
            head("forceLoginOrgUUID"): "union",
            head("permissions"): "deferred",
            head("allowedProviders"): "preprocess",
            head("sshHostCommands"): "unknown",
        }
        sandbox = re.match(IDENT + r"\(\(\)=>(" + IDENT + r")\(\)\)", self.key_expr("sandbox"))
        if sandbox:
            d = self.definition(sandbox.group(1))
            m = re.match(r"(" + IDENT + r")\(\(\)=>", d or "")
            if m:
                b[m.group(1)] = "memo"
        if len(set(b)) != len(b.values()):
            raise SystemExit(f"calibration: two builders share a name: {b}")
        return b

    def definition(self, name: str) -> str | None:
        """The nearest definition of a module-local name before the schema
        object: `name=EXPR` or `function name(..){return EXPR}`."""
        pat = re.compile(r"(?:[,;{}\s]" + re.escape(name) + r"=(?!=)|function " + re.escape(name)
                         + r"\([^)]*\)\{return )")
        best = None
        for m in pat.finditer(self.s, max(0, self.anchor - 3_000_000), self.anchor + 200_000):
            if best is None or abs(m.start() - self.anchor) < abs(best.start() - self.anchor):
                if m.start() < self.anchor or best is None:
                    best = m
        if best is None:
            return None
        start = best.end()
        return self.s[start:self.expr_end(start)]

    def expr_end(self, i: int) -> int:
        s = self.s
        while i < len(s):
            c = s[i]
            if c in "\"'`":
                i = skip_string(s, i)
                continue
            if is_regex_start(s, i):
                i = skip_regex(s, i)
                continue
            if c in PAIRS:
                i = match(s, i) + 1
                continue
            if c in ",;)]}":
                return i
            i += 1
        return i

    # ---- expressions ------------------------------------------------------

    def chain(self, e: str) -> tuple[str, list[tuple[str, str]]]:
        """`head(args).m1(a1).m2(a2)` as (head call text, [(m, args)])."""
        m = re.match(r"(" + IDENT + r"(?:\." + IDENT + r")?)\(", e)
        if not m:
            return e, []
        close = match(e, m.end() - 1)
        head = e[:close + 1]
        methods, i = [], close + 1
        while i < len(e):
            mm = re.match(r"\.(" + IDENT + r")\(", e[i:])
            if not mm:
                break
            open_at = i + mm.end() - 1
            close = match(e, open_at)
            methods.append((mm.group(1), e[open_at + 1:close]))
            i = close + 1
        if e[i:].strip():
            return e, []
        return head, methods

    def node(self, e: str, depth: int = 0) -> dict:
        e = e.strip()
        if depth > 40:
            return ANY
        if e.startswith("()=>"):
            return self.node(e[4:], depth + 1)
        head, methods = self.chain(e)
        names = [m for m, _ in methods]
        if "catch" in names or "transform" in names or "pipe" in names:
            return ANY
        m = re.match(r"(" + IDENT + r")\(", head)
        if not m:
            return ANY
        fn, args = m.group(1), head[m.end():-1]
        kind = self.b.get(fn)
        node = self.base(kind, fn, args, depth)
        if node.get("t") == "any":
            return ANY
        for meth, a in methods:
            node = self.refine(node, meth, a)
        return node

    def base(self, kind: str | None, fn: str, args: str, depth: int) -> dict:
        parts = split_top(args) if args.strip() else []
        if kind == "string":
            return {"t": "string"}
        if kind == "bool":
            return {"t": "bool"}
        if kind == "number":
            return {"t": "number"}
        if kind == "literal" and len(parts) == 1:
            try:
                return {"t": "literal", "v": json.loads(parts[0])}
            except ValueError:
                return ANY
        if kind == "enum" and len(parts) == 1:
            values = self.array_values(parts[0])
            return {"t": "enum", "v": values} if values is not None else ANY
        if kind == "array" and len(parts) >= 1:
            return {"t": "array", "of": self.node(parts[0], depth + 1)}
        if kind == "record" and len(parts) >= 2:
            return {"t": "record", "of": self.node(parts[1], depth + 1)}
        if kind == "union" and len(parts) == 1 and parts[0].startswith("["):
            of = [self.node(p, depth + 1) for p in split_top(parts[0][1:-1])]
            return ANY if any(o["t"] == "any" for o in of) else {"t": "union", "of": of}
        if kind == "object" and parts and parts[0].startswith("{"):
            return self.object(parts[0], depth)
        if kind in ("deferred", "memo") and len(parts) == 1:
            return self.node(parts[0], depth + 1)
        if kind == "preprocess" and len(parts) == 2:
            alias = self.alias(parts[0])
            inner = self.node(parts[1], depth + 1)
            if alias is None or inner["t"] != "enum":
                return ANY
            return dict(inner, alias=alias)
        if kind is None:
            d = self.definition(fn)
            if d is not None:
                return self.node(d, depth + 1)
            self.unresolved.add(fn)
        return ANY

    def object(self, body: str, depth: int) -> dict:
        keys: dict[str, dict] = {}
        for p in split_top(body[1:-1]):
            m = re.match(r"(" + IDENT + r"|\"[^\"]+\"):", p)
            if not m:
                continue  # a spread or a computed key: its keys stay unchecked
            keys[m.group(1).strip('"')] = self.node(p[m.end():], depth + 1)
        return {"t": "object", "keys": keys}

    def array_values(self, text: str) -> list | None:
        text = text.strip()
        if re.fullmatch(IDENT, text):
            d = self.definition(text)
            return None if d is None else self.array_values(d)
        if not text.startswith("["):
            return None
        values = []
        for p in split_top(text[1:-1]):
            if p.startswith("..."):
                inner = self.array_values(p[3:])
                if inner is None:
                    inner = SPREADS.get(p[3:])
                if inner is None:
                    return None
                values += inner
            else:
                try:
                    values.append(json.loads(p))
                except ValueError:
                    return None
        return values

    def alias(self, fn: str) -> dict | None:
        """A preprocess that maps one string to another (`e==="a"?"b":e`)."""
        d = self.definition_function(fn)
        if d is None:
            return None
        m = re.fullmatch(r'(\w)==="([^"]*)"\?"([^"]*)":\1', d)
        return {m.group(2): m.group(3)} if m else None

    def definition_function(self, name: str) -> str | None:
        pat = re.compile(r"function " + re.escape(name) + r"\(\w\)\{return ")
        best = None
        for m in pat.finditer(self.s, max(0, self.anchor - 3_000_000), self.anchor):
            best = m
        if best is None:
            return None
        return self.s[best.end():self.expr_end(best.end())]

    def refine(self, node: dict, meth: str, a: str) -> dict:
        num = None
        try:
            num = float(a) if a.strip() else None
        except ValueError:
            num = None
        if meth in ("optional", "describe", "meta", "default"):
            return node
        if meth == "nullable" or meth == "nullish":
            return dict(node, null=True)
        if meth == "passthrough" or meth == "loose":
            return node
        if node["t"] == "number":
            if meth == "int":
                return dict(node, int=True)
            if meth == "positive":
                return dict(node, gt=0)
            if meth == "nonnegative":
                return dict(node, min=0)
            if meth in ("min", "gte") and num is not None:
                return dict(node, min=num)
            if meth in ("max", "lte") and num is not None:
                return dict(node, max=num)
            if meth == "gt" and num is not None:
                return dict(node, gt=num)
            if meth == "lt" and num is not None:
                return dict(node, lt=num)
        # A refinement or a bound this reader does not model: the type is
        # still checked, the refinement is not (never a false error).
        return node


# Spreads in an enum that are calls, not lists: what they give in this release.
# `uo(e)` is the permission modes the settings extensions add (auto mode's
# `permissionModes`, `uE.filter((e)=>!kj.includes(e))`, with `uE` a copy of
# `kj`): none.
SPREADS = {"uo(e)": []}

# Claude Code filters the rules of `permissions.allow`, `deny` and `ask`
# before the schema sees them (a rule of the wrong type or a rule that does
# not parse is skipped with a warning, measured in doc/clients.md), so only
# the list itself is checked.
RULE_LISTS = ("allow", "deny", "ask")


def main() -> int:
    exe, version = sys.argv[1], sys.argv[2]
    text = open(exe, "rb").read().decode("latin-1")
    anchor = text.find('return{$schema:()=>')
    while anchor >= 0 and "JSON Schema reference for Claude Code settings" not in \
            text[anchor:anchor + 200]:
        anchor = text.find('return{$schema:()=>', anchor + 1)
    if anchor < 0:
        raise SystemExit("the settings schema object was not found")
    reader = Reader(text, anchor)
    start = anchor + len("return")
    body = text[start:match(text, start) + 1]
    schema = reader.object(body, 0)
    perms = schema["keys"].get("permissions", {})
    for key in RULE_LISTS:
        if perms.get("t") == "object" and perms["keys"].get(key, {}).get("t") == "array":
            perms["keys"][key]["of"] = ANY
    for required in ("permissions", "sandbox", "model", "cleanupPeriodDays"):
        if schema["keys"].get(required, ANY)["t"] == "any":
            raise SystemExit(f"{required}: not read (the extraction needs a look)")
    out = {"claude_code": version, "builders": reader.b, "schema": schema}
    json.dump(out, sys.stdout, indent=1, sort_keys=False)
    sys.stdout.write("\n")
    if reader.unresolved:
        print(f"unresolved (left unchecked): {sorted(reader.unresolved)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
