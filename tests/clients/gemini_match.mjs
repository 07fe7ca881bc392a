// Ask Gemini CLI's own policy engine what it decides for tool calls, with
// the policy files of $HOME/.gemini/policies loaded as Gemini loads them.
//
// Usage: node gemini_match.mjs BUNDLE_DIR CASES_JSON
//   CASES_JSON: [{"label", "mode": "default"|"yolo", "tool", "args",
//                 "expect": "deny"|"ask_user"|"allow"|"not-deny"}]
// Prints one JSON object: {"failures": [...], "feedback": [...], "checked": N,
// "decisions": [{"decision", "priority"}, ...]}: per case, what the engine
// decided and the scaled priority of the rule that decided it (null for the
// engine's default); "expect" may then be "any".
// "feedback" holds every error or warning the loader raised (a broken rule
// is reported there, as the CLI prints it at start-up).
//
// The engine is the bundle's own module: the chunk that gemini.js loads and
// that exports createPolicyEngineConfig (Gemini CLI 0.61.0:
// chunk-JDPZ4CE3.js). createPolicyEngineConfig reads the built-in policies
// of the bundle (bundle/policies, yolo's allow-everything among them) and
// the user's; PolicyEngine.check is what the scheduler calls for each tool
// call (checkPolicy).

import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const bundle = path.resolve(process.argv[2]);

// The chunk holding the policy engine, found from the entry point: the
// chunk names are content hashes, so they change with every release.
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
  throw new Error(`no chunk of ${bundle} exports the policy engine`);
}

// The engine logs every decision through console.debug.
console.debug = () => {};
const core = await import(pathToFileURL(engineChunk()).href);
const { createPolicyEngineConfig, PolicyEngine, coreEvents, ApprovalMode } = core;

const feedback = [];
coreEvents.on("user-feedback", (p) => {
  if (p && (p.severity === "error" || p.severity === "warning")) {
    feedback.push(`${p.severity}: ${p.message}`);
  }
});
// Feedback emitted before a listener exists is kept in a backlog.
if (typeof coreEvents.drainBacklogs === "function") {
  coreEvents.drainBacklogs();
}

const cases = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
const engines = {};
async function engine(mode) {
  if (!engines[mode]) {
    const approval = mode === "yolo" ? ApprovalMode.YOLO : ApprovalMode.DEFAULT;
    const config = await createPolicyEngineConfig({}, approval, undefined, true);
    engines[mode] = new PolicyEngine(config);
  }
  return engines[mode];
}

const failures = [];
const decisions = [];
for (const c of cases) {
  const { decision, rule } = await (await engine(c.mode)).check({ name: c.tool, args: c.args });
  decisions.push({ decision, priority: rule ? rule.priority : null });
  const ok = c.expect === "any" ||
    (c.expect === "not-deny" ? decision !== "deny" : decision === c.expect);
  if (!ok) {
    failures.push(`${c.label}: ${c.mode} ${c.tool} ${JSON.stringify(c.args)} -> ${decision}, ` +
      `expected ${c.expect}`);
  }
}
process.stdout.write(JSON.stringify({ failures, feedback, checked: cases.length, decisions }) +
  "\n");
