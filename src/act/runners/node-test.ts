import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseJestJson } from "./jest-json.ts";
import { exactPattern, nodeTestRules, planJsBatches, titlePath } from "./name-filter.ts";
import { shellQuote, type RunPlan, type Runner } from "./types.ts";

/**
 * A node:test reporter that writes jest-shaped JSON (file, describe path, title, status, duration,
 * failure message), so all JavaScript runners share one parser. Written to the run's temp dir.
 */
const REPORTER = `
const stacks = new Map();
export default async function* guardReporter(source) {
  const files = new Map();
  for await (const ev of source) {
    const d = ev.data || {};
    const file = d.file || "";
    if (ev.type === "test:start") {
      const s = stacks.get(file) || [];
      s[d.nesting] = d.name; s.length = d.nesting + 1; stacks.set(file, s);
    }
    if (ev.type !== "test:pass" && ev.type !== "test:fail") continue;
    if (d.details && d.details.type === "suite") continue;
    const s = stacks.get(file) || [];
    const entry = files.get(file) || { name: file, assertionResults: [] };
    const err = d.details && d.details.error;
    const cause = err && (err.cause || err);
    entry.assertionResults.push({
      ancestorTitles: s.slice(0, d.nesting),
      title: d.name,
      status: ev.type === "test:pass" ? (d.skip || d.todo ? "skipped" : "passed") : "failed",
      duration: d.details ? d.details.duration_ms : null,
      failureMessages: ev.type === "test:fail" ? [String((cause && cause.message) || cause || "failed")] : [],
    });
    files.set(file, entry);
  }
  yield JSON.stringify({ testResults: [...files.values()] });
}
`;

function scriptArgs(root: string): string[] | undefined {
  const p = join(root, "package.json");
  if (!existsSync(p)) return undefined;
  try {
    const script = JSON.parse(readFileSync(p, "utf8"))?.scripts?.test;
    if (typeof script === "string" && /^node\s+(.*\s)?--test\b/.test(script) && !/[|&;<>$`]/.test(script)) return script.trim().split(/\s+/).slice(1);
  } catch {}
  return undefined;
}

export const nodeTest: Runner = {
  framework: "node:test",
  detect: (root) => scriptArgs(root) !== undefined,
  owns: (t) => t.framework === "node:test",
  plan(root, tests, tmp, known = []) {
    const reporter = join(tmp, "guard-node-reporter.mjs");
    writeFileSync(reporter, REPORTER);
    const base = (scriptArgs(root) ?? ["--test"]).filter((a) => !a.startsWith("--test-reporter") && !a.startsWith("--test-name-pattern"));
    // Selected files replace the script's own file arguments; flags stay. node reads options before the files.
    const flags = base.filter((a) => a.startsWith("-"));
    const command = (operands: string[], pattern: string | undefined, i: number, selected?: typeof known, notes?: string[]): RunPlan => {
      const resultFile = join(tmp, `node-test-${i}.json`);
      const filter = pattern ? [`--test-name-pattern=${pattern}`] : [];
      const argv = ["node", ...flags, ...filter, `--test-reporter=${reporter}`, `--test-reporter-destination=${resultFile}`, "--test-reporter=spec", "--test-reporter-destination=stderr", ...operands];
      const display = `node --test${pattern ? ` --test-name-pattern=${shellQuote(pattern)}` : ""} ${selected ? operands.map(shellQuote).join(" ") : ""}`.trim();
      return { framework: "node:test", argv, cwd: root, display, resultFile, cleanup: i === 0 ? [reporter] : [], tests: selected, ...(pattern ? { nameFiltered: true } : {}), ...(notes?.length ? { notes } : {}) };
    };
    if (tests === "all") return [command(base.filter((a) => !a.startsWith("-")), undefined, 0)];
    const { batches, notes } = planJsBatches(tests, known, nodeTestRules);
    // The reporter file is removed with the last plan.
    const plans = batches.map((b, i) => command(b.targets, b.pattern, i, tests.filter((t) => b.targets.includes(t.file)), b.pattern ? undefined : notes));
    for (const p of plans) p.cleanup = [];
    plans.at(-1)!.cleanup = [reporter];
    return plans;
  },
  parse: (plan, _out, text) => parseJestJson(plan.cwd, text),
  reproduce(_root, failed) {
    const names = failed.map((f) => titlePath({ id: f.runnerId ?? f.id, file: f.file, framework: "", selector: "" })?.at(-1));
    const pattern = names.every((n) => n !== undefined) && names.length > 0 ? ` --test-name-pattern=${shellQuote(exactPattern(names as string[]))}` : "";
    return `node --test${pattern} ${[...new Set(failed.map((f) => f.file))].slice(0, 5).map(shellQuote).join(" ")}`;
  },
};
