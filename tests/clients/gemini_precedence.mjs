// What Gemini CLI's own policy engine decides for one twsrt-denied and one
// twsrt-asked shell command under the launch options `twsrt audit` judges,
// with $HOME/.gemini/policies loaded as Gemini loads it.
//
// Usage: node gemini_precedence.mjs BUNDLE_DIR DENIED_COMMAND ASKED_COMMAND
// Prints one JSON object: {"label": decision, ...}. The labels are the
// scenarios below; tests/clients/gemini_launch.py says what each must be.
//
// createPolicyEngineConfig is the function loadCliConfig calls with the
// merged settings (gemini-3HFX2LNT.js:8444): `policyPaths` is what
// `--policy` sets, `adminPolicyPaths` what `--admin-policy` sets,
// `tools.allowed` what `--allowed-tools` sets (:8419-8442).

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [bundleArg, denied, asked] = process.argv.slice(2);
const bundle = path.resolve(bundleArg);

// The chunk the entry's main module imports that exports the engine (the
// chunk names are content hashes).
function engineChunk() {
  const entry = fs.readFileSync(path.join(bundle, "gemini.js"), "utf8");
  for (const [, main] of entry.matchAll(/import\("\.\/(gemini-[A-Z0-9]+\.js)"\)/g)) {
    const text = fs.readFileSync(path.join(bundle, main), "utf8");
    for (const [, name] of text.matchAll(/from "\.\/(chunk-[A-Z0-9]+\.js)"/g)) {
      const chunk = fs.readFileSync(path.join(bundle, name), "utf8");
      if (/\n\s*createPolicyEngineConfig,\n/.test(chunk) && /\n\s*PolicyEngine,\n/.test(chunk)) {
        return path.join(bundle, name);
      }
    }
  }
  throw new Error(`no chunk of ${bundle} exports the policy engine`);
}

console.debug = () => {};
const { createPolicyEngineConfig, PolicyEngine, ApprovalMode } = await import(
  pathToFileURL(engineChunk()).href
);

// Policy files of our own, outside the user directory.
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "gemini-precedence-"));
const allowAll = path.join(scratch, "allow-all.toml");
fs.writeFileSync(allowAll, '[[rule]]\ntoolName = "run_shell_command"\ndecision = "allow"\npriority = 1\n');
const empty = path.join(scratch, "empty");
fs.mkdirSync(empty);

async function decide(settings, mode, command) {
  const config = await createPolicyEngineConfig(settings, mode, undefined, true);
  const engine = new PolicyEngine(config);
  const { decision } = await engine.check({ name: "run_shell_command", args: { command } });
  return decision;
}

const out = {};
for (const [mode, name] of [
  [ApprovalMode.DEFAULT, "default"],
  [ApprovalMode.YOLO, "yolo"],
  [ApprovalMode.AUTO_EDIT, "auto_edit"],
]) {
  out[`${name}: denied`] = await decide({}, mode, denied);
  out[`${name}: asked`] = await decide({}, mode, asked);
}
out["--policy elsewhere: denied"] = await decide({ policyPaths: [empty] }, ApprovalMode.DEFAULT, denied);
out["--admin-policy allow: denied"] = await decide(
  { adminPolicyPaths: [allowAll] }, ApprovalMode.DEFAULT, denied);
out["--allowed-tools shell: denied"] = await decide(
  { tools: { allowed: ["run_shell_command"] } }, ApprovalMode.DEFAULT, denied);
out["--allowed-tools shell: asked"] = await decide(
  { tools: { allowed: ["run_shell_command"] } }, ApprovalMode.DEFAULT, asked);
fs.rmSync(scratch, { recursive: true, force: true });
process.stdout.write(JSON.stringify(out) + "\n");
