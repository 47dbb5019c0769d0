import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect } from "bun:test";
import { applyScenario, buildProject, resetProject, type FixtureProject, type Scenario } from "../../fixtures/select/project.ts";
import { recordEvidence } from "../../src/graph/evidence/record.ts";
import { indexRepository } from "../../src/graph/indexer.ts";
import { openGraph } from "../../src/graph/open.ts";
import type { Selection } from "../../src/decide/select/selection.ts";
import { guard } from "../helpers/repo.ts";

/** Build a fixture project, index it and record its evidence on the test engine (GUARD_HOME's server). */
export async function preparedProject(project: FixtureProject): Promise<string> {
  const root = buildProject(project);
  const graph = await openGraph(root);
  try {
    await indexRepository(root, graph);
    const ev = await recordEvidence(root, { graph });
    if (!ev.ok) throw new Error(`evidence for ${project.name} failed its checks: ${JSON.stringify(ev.checks)}`);
  } finally {
    await graph.close();
  }
  return root;
}

/** The stable part of a decision, as kept in golden files. */
export function goldenOf(s: Selection) {
  return {
    level: s.level,
    overrides: [...new Set(s.overrides.map((o) => o.code))].sort(),
    fault: s.fault?.code ?? null,
    tests: s.runAll ? "all" : s.tests.map((t) => t.id),
    reasons: s.runAll ? {} : Object.fromEntries(s.tests.map((t) => [t.id, [...new Set(t.reasons.map((r) => r.code + (r.function ? ` ${r.function}` : "")))].sort()])),
  };
}

const GOLDEN_DIR = join(import.meta.dir, "..", "..", "fixtures", "select", "golden");

/** Compare with fixtures/select/golden/<project>/<scenario>.json; GUARD_UPDATE_GOLDEN=1 rewrites it. */
export function golden(project: string, scenario: string, actual: unknown): unknown {
  const path = join(GOLDEN_DIR, project, `${scenario}.json`);
  if (process.env.GUARD_UPDATE_GOLDEN === "1" || !existsSync(path)) {
    if (process.env.GUARD_UPDATE_GOLDEN !== "1" && process.env.CI) throw new Error(`missing golden ${path}`);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${JSON.stringify(actual, null, 2)}\n`);
  }
  return JSON.parse(readFileSync(path, "utf8"));
}

/** The tests `guard check --json` selects for a scenario (a subset, never run-all), each with its reason codes. */
export function selectedWithReasons(root: string, scenario: Scenario): string[] {
  applyScenario(root, scenario);
  try {
    const r = guard(["check", "--json"], root);
    const data = JSON.parse(r.stdout).data as { runAll: boolean; tests: { id: string; reasons: { code: string }[] }[] };
    expect(data.runAll).toBe(false);
    return data.tests.map((t) => `${t.id} ${[...new Set(t.reasons.map((x) => x.code))].sort().join("+")}`).sort();
  } finally {
    resetProject(root);
  }
}
