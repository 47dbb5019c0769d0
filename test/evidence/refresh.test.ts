// `guard evidence --changed` re-runs only the tests whose covered functions changed, on a real pytest
// suite and a real FalkorDB; and a missing tool is a one-line error with the command that adds it.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildPythonFixture } from "../../fixtures/evidence/python/build.ts";
import { commitAll } from "../../fixtures/evidence/repo.ts";
import { recordEvidence } from "../../src/graph/evidence/record.ts";
import { recordPytest } from "../../src/graph/evidence/python/record.ts";
import { graphName } from "../../src/graph/name.ts";
import type { DoctorContext } from "../../src/cli/doctor/check.ts";
import { evidencePresent } from "../../src/cli/doctor/evidence-check.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(() => engine.stop());

test("--changed re-records the tests of a changed function only, and edges follow the code", async () => {
  const dir = join(mkdtempSync(join(tmpdir(), "guard-ev-refresh-")), "repo");
  buildPythonFixture(dir);
  const graph = engine.graph();
  await recordEvidence(dir, { graph });
  const nothing = await recordEvidence(dir, { graph, changed: true });
  expect(nothing.tests.total).toBe(0);

  // load_names now also calls data_path's sibling; only test_names covered load_names.
  const path = join(dir, "pkg/data.py");
  writeFileSync(path, readFileSync(path, "utf8").replace("        return [line.strip()", "        f = f\n        return [line.strip()"));
  const sha = commitAll(dir, "touch load_names");
  const again = await recordEvidence(dir, { graph, changed: true });
  expect(again.tests.total).toBe(1);
  const { rows } = await graph.roQuery(`MATCH (t:Test {id: "tests/test_data.py::test_names"}) RETURN t.evidence_sha AS sha`);
  expect(rows[0]?.sha).toBe(sha);
  const { rows: other } = await graph.roQuery(`MATCH (t:Test {id: "tests/test_calc.py::test_add"}) RETURN t.evidence_sha AS sha`);
  expect(other[0]?.sha).not.toBe(sha);
});

test("a missing coverage module names the command that adds it and installs nothing", async () => {
  const dir = join(mkdtempSync(join(tmpdir(), "guard-ev-missing-")), "repo");
  buildPythonFixture(dir);
  // A real interpreter that cannot import coverage: isolated mode (-I) hides site-packages.
  const wrapper = join(dir, "..", "python-without-site");
  writeFileSync(wrapper, `#!/bin/sh\nexec python3 -I -S "$@"\n`, { mode: 0o755 });
  const env = { kind: "venv" as const, python: wrapper, addCommand: (p: string) => `.venv/bin/python -m pip install ${p}` };
  const err = await recordPytest({ root: dir, env }).catch((e) => e);
  expect(err.code).toBe("E_EVIDENCE_TOOL_MISSING");
  expect(err.oneLine()).toBe(
    `cannot record evidence: pytest and coverage is not installed in venv (${wrapper}): guard installs nothing into your environment unless asked; run \`.venv/bin/python -m pip install pytest coverage\` (or rerun with --install)`,
  );
});

test("guard doctor's evidence check: a warning with the command before recording, counts and age after", async () => {
  const dir = join(mkdtempSync(join(tmpdir(), "guard-ev-doctor-")), "repo");
  buildPythonFixture(dir);
  const graph = engine.graph(graphName(dir));
  const ctx = { cwd: dir, root: dir, fix: false, engine: async () => ({ client: engine.client }) } as unknown as DoctorContext;
  const before = await evidencePresent.run(ctx);
  expect([before.status, before.todo]).toEqual(["warn", "run `guard init`"]);
  await graph.query("RETURN 1");
  const empty = await evidencePresent.run(ctx);
  expect([empty.status, empty.todo]).toEqual(["warn", "run `guard evidence`"]);
  await recordEvidence(dir, { graph });
  const after = await evidencePresent.run(ctx);
  expect(after.status).toBe("ok");
  expect(after.summary).toMatch(/^\d+ edges over \d+ tests, 0 commit\(s\) old$/);
  expect(after.details).toMatchObject({ suites: "python", commitsBehind: 0 });
  expect(Number(after.details!.edges)).toBeGreaterThan(0);
});
