// Gemini CLI's own policy engine asked about tool calls, for `twsrt test
// --agent gemini` (src/agent/gemini/prove.rs). Run as
// `node --input-type=module -e THIS BUNDLE_DIR`, the calls on stdin:
// [{"tool", "args"}, ...]. Prints one JSON object: {"decisions":
// [{"decision", "priority"}, ...]} in call order (priority null when the
// engine's default decided), "feedback": the loader's errors and warnings.
// The engine is the bundle chunk exporting createPolicyEngineConfig and
// PolicyEngine, loaded with the user's policies as Gemini CLI loads them in
// its default approval mode.

import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const bundle = path.resolve(process.argv[1]);

function engineChunk() {
  const entry = fs.readFileSync(path.join(bundle, "gemini.js"), "utf8");
  const main = [...entry.matchAll(/import\("\.\/(gemini-[A-Z0-9]+\.js)"\)/g)].map((m) => m[1]);
  for (const name of main) {
    const text = fs.readFileSync(path.join(bundle, name), "utf8");
    for (const m of text.matchAll(/from "\.\/(chunk-[A-Z0-9]+\.js)"/g)) {
      const chunk = fs.readFileSync(path.join(bundle, m[1]), "utf8");
      if (/\n\s*createPolicyEngineConfig,\n/.test(chunk) && /\n\s*PolicyEngine,\n/.test(chunk)) {
        return path.join(bundle, m[1]);
      }
    }
  }
  throw new Error(`no chunk of ${bundle} exports Gemini's policy engine`);
}

console.debug = () => {};
console.log = () => {};
const core = await import(pathToFileURL(engineChunk()).href);
const { createPolicyEngineConfig, PolicyEngine, coreEvents, ApprovalMode } = core;
const feedback = [];
coreEvents.on("user-feedback", (p) => {
  if (p && (p.severity === "error" || p.severity === "warning")) {
    feedback.push(`${p.severity}: ${p.message}`);
  }
});
if (typeof coreEvents.drainBacklogs === "function") {
  coreEvents.drainBacklogs();
}
const calls = JSON.parse(fs.readFileSync(0, "utf8"));
const config = await createPolicyEngineConfig({}, ApprovalMode.DEFAULT, undefined, true);
const engine = new PolicyEngine(config);
const decisions = [];
for (const c of calls) {
  const { decision, rule } = await engine.check({ name: c.tool, args: c.args });
  decisions.push({ decision, priority: rule ? rule.priority : null });
}
process.stdout.write(JSON.stringify({ decisions, feedback }) + "\n");
