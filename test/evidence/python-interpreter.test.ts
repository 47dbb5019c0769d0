// Which interpreter guard's pytest processes start. A version manager's shim (pyenv's, in a `shims`
// folder) only picks an interpreter and costs a tenth of a second a start: guard asks it once and starts
// what it picked. Any other wrapper may set up the environment the tests need, so every process goes
// through it. Real pytest behind scripts standing in for a shim and a wrapper, a real engine.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildRepo } from "../../fixtures/evidence/repo.ts";
import { recordEvidence } from "../../src/graph/evidence/record.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";

let engine: TestEngine;
let real: string;
beforeAll(async () => {
  engine = await startTestEngine();
  real = Bun.spawnSync(["python3", "-c", "import sys; print(sys.executable)"], { stdout: "pipe" }).stdout.toString().trim();
});
afterAll(async () => {
  await engine?.stop();
});

const SUITE = {
  "pkg/__init__.py": "import os\n\n\ndef wrapped():\n    return os.environ.get('WRAPPED_BY') == 'wrapper'\n",
  "tests/test_a.py": "from pkg import wrapped\n\n\ndef test_one():\n    assert wrapped() or True\n\n\ndef test_two():\n    assert wrapped() or True\n",
  "tests/test_b.py": "from pkg import wrapped\n\n\ndef test_wrapped_when_asked():\n    import os\n    if os.environ.get('EXPECT_WRAPPER'):\n        assert wrapped()\n",
};

/** A `python3` script in `folder` that logs each start and runs the real interpreter, exporting `env`. */
function fakePython(folder: string, log: string, env = ""): string {
  mkdirSync(folder, { recursive: true });
  const path = join(folder, "python3");
  writeFileSync(path, `#!/bin/sh\necho start >> ${log}\n${env}exec ${real} "$@"\n`);
  chmodSync(path, 0o755);
  return folder;
}

async function recordWith(folder: string, extraEnv: Record<string, string> = {}) {
  const dir = join(mkdtempSync(join(tmpdir(), "guard-ev-interp-")), "repo");
  buildRepo(dir, SUITE);
  const saved = { ...process.env };
  process.env.PATH = `${folder}:${process.env.PATH}`;
  delete process.env.VIRTUAL_ENV;
  Object.assign(process.env, extraEnv);
  try {
    return await recordEvidence(dir, { graph: engine.graph(), parallel: 2 });
  } finally {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

test("behind a version manager's shim, the shim starts once and the pytest processes start what it picked", async () => {
  const base = mkdtempSync(join(tmpdir(), "guard-shim-"));
  const log = join(base, "starts.log");
  const report = await recordWith(fakePython(join(base, "shims"), log));
  expect(report.tests).toEqual({ total: 3, passed: 3, failed: 0, skipped: 0 });
  expect(report.notes).toContain("pytest: 2 processes at once, each running its share of the tests");
  expect(readFileSync(log, "utf8").trim().split("\n")).toEqual(["start"]);
}, 120_000);

test("behind any other wrapper, every pytest process goes through it (it may set up what the tests need)", async () => {
  const base = mkdtempSync(join(tmpdir(), "guard-wrap-"));
  const log = join(base, "starts.log");
  const report = await recordWith(fakePython(join(base, "bin"), log, "WRAPPED_BY=wrapper; export WRAPPED_BY\n"), { EXPECT_WRAPPER: "1" });
  expect(report.tests).toEqual({ total: 3, passed: 3, failed: 0, skipped: 0 });
  expect(report.notes).toContain("pytest: 2 processes at once, each running its share of the tests");
  // The probe, then each of the two processes.
  expect(readFileSync(log, "utf8").trim().split("\n").length).toBe(3);
}, 120_000);
