import { isAbsolute, relative } from "node:path";
import type { Graph } from "../client.ts";
import type { Attribution } from "./attribute.ts";
import type { Evidence } from "./types.ts";

export interface CheckResult {
  name: "canary" | "every-passing-test-has-evidence" | "tests-run-the-checkout";
  ok: boolean;
  detail: string;
}

/**
 * A function that two tests ran must map to both in the graph. Catches a coverage core that credits a
 * line only to the first test, and writes that lost edges. Skipped only when no function ran in two tests.
 */
export async function canaryCheck(graph: Graph, attr: Attribution, graphId: (id: string) => string): Promise<CheckResult> {
  const testsOf = new Map<string, Set<string>>();
  for (const [test, fns] of attr.byTest) for (const f of fns) if (!f.endsWith("::<module>")) (testsOf.get(f) ?? testsOf.set(f, new Set()).get(f)!).add(graphId(test));
  const shared = [...testsOf].filter(([, ts]) => ts.size >= 2).sort((a, b) => b[1].size - a[1].size)[0];
  if (!shared) return { name: "canary", ok: true, detail: "no function ran in two tests; nothing to compare" };
  const [fn, expected] = shared;
  const { rows } = await graph.roQuery(`MATCH (:Function {id: $f})-[:COVERED_BY {source: "coverage"}]->(t:Test) RETURN t.id AS t`, { f: fn });
  const got = new Set(rows.map((r) => String(r.t)));
  const missing = [...expected].filter((t) => !got.has(t));
  return missing.length === 0
    ? { name: "canary", ok: true, detail: `${fn} maps to all ${expected.size} tests that ran it` }
    : { name: "canary", ok: false, detail: `${fn} ran in ${expected.size} tests but maps to ${got.size}; missing ${missing.slice(0, 3).join(", ")}` };
}

/** Passing tests with no evidence at all: marked `no_evidence`, they run on every change (write.ts). */
export function evidenceless(ev: Evidence, attr: Attribution, graphId: (id: string) => string = (id) => id): string[] {
  // Cases written under one graph test (subtests, parameters) have evidence when any of them has some.
  const has = new Set(ev.tests.filter((t) => (attr.byTest.get(t.id)?.size ?? 0) > 0 || ev.filesRead[t.id]?.length).map((t) => graphId(t.id)));
  return ev.tests.filter((t) => t.outcome === "passed" && !has.has(graphId(t.id))).map((t) => t.id);
}

/**
 * Some passing tests without evidence (a doctest of a text file reading a constant, a test that only drives
 * a subprocess) are named and run on every change; the rest of the evidence stands. None with evidence
 * means the recording measured nothing of the project, and that fails.
 */
export function evidencelessCheck(ids: string[], passed: number): CheckResult {
  const named = `${ids.slice(0, 3).join(", ")}${ids.length > 3 ? ", …" : ""}`;
  if (ids.length === 0) return { name: "every-passing-test-has-evidence", ok: true, detail: "every passing test ran some measured code" };
  if (ids.length < passed) return { name: "every-passing-test-has-evidence", ok: true, detail: `${ids.length} of ${passed} passing tests ran no measured code, so they run on every change: ${named}` };
  return { name: "every-passing-test-has-evidence", ok: false, detail: `none of the ${passed} passing test(s) ran measured code of the project: ${named}` };
}

/**
 * The tests must run this checkout's code. A package of the project that they imported from somewhere else
 * (a `pip install .` into the environment, a build folder) is one whose edits no test runs: its functions
 * get no evidence, and a green run says nothing about the edit. Named, with how to fix it.
 */
export function checkoutCheck(root: string, copies: NonNullable<Evidence["installedCopies"]>): CheckResult {
  const name = "tests-run-the-checkout";
  if (copies.length === 0) return { name, ok: true, detail: "the tests imported the project's own packages from this checkout" };
  const where = (p: string) => (isAbsolute(p) && !relative(root, p).startsWith("..") ? relative(root, p) : p);
  const shown = copies.slice(0, 3).map((c) => `${c.name} from ${where(c.imported)}, not ${c.checkout}`).join("; ");
  return {
    name,
    ok: false,
    detail: `the tests imported ${shown}${copies.length > 3 ? `, and ${copies.length - 3} more` : ""}: an edit in the checkout is not what they run; install the project editable (\`pip install -e .\`) or put its source folder first on the path, then run \`guard evidence\``,
  };
}
