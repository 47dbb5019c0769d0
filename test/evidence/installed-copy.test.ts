// The tests must run the checkout: a project whose tests import its own package from somewhere else (an
// installed copy, an old build on PYTHONPATH) never runs an edit of the checkout. guard evidence names the
// package, where it came from and how to fix it, exits non-zero, and doctor warns; once the tests import
// the checkout, both are clean. Real pytest and coverage, a real engine, through guard's CLI.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildRepo } from "../../fixtures/evidence/repo.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { guard } from "../helpers/repo.ts";

let engine: TestEngine;
let root: string;
let elsewhere: string;
beforeAll(async () => {
  engine = await startTestEngine();
  const base = mkdtempSync(join(tmpdir(), "guard-installed-"));
  root = join(base, "repo");
  buildRepo(root, {
    "src/minipkg/__init__.py": "def double(x):\n    return x * 2\n",
    // An alias package that puts another of the project's packages in its place (as toolz's tlz does).
    "src/minialias/__init__.py": "import sys\nimport minipkg\n\nsys.modules[__name__] = minipkg\n",
    "tests/test_double.py": "from minipkg import double\nimport minialias\n\n\ndef test_double():\n    assert double(2) == 4\n    assert minialias.double(1) == 2\n",
  });
  // The same package, copied where an install would put it, first on the path.
  elsewhere = join(base, "site");
  cpSync(join(root, "src"), elsewhere, { recursive: true });
}, 120_000);
afterAll(async () => {
  await engine?.stop();
  rmSync(join(root, ".."), { recursive: true, force: true });
});

test("tests that import an installed copy of the project's package: evidence names it and fails, doctor warns", () => {
  const r = guard(["evidence", "--json"], root, { env: { PYTHONPATH: elsewhere } });
  expect(r.code).toBe(1);
  const check = JSON.parse(r.stdout).data.checks.find((c: { name: string }) => c.name === "tests-run-the-checkout");
  expect(check.ok).toBe(false);
  expect(check.detail).toContain(`minipkg from ${join(elsewhere, "minipkg")}, not src/minipkg`);
  expect(check.detail).toContain("pip install -e .");
  const doctor = guard(["doctor", "--json"], root);
  const ev = JSON.parse(doctor.stdout).data.checks.find((c: { id: string }) => c.id === "evidence.coverage");
  expect(ev.status).toBe("warn");
  expect(ev.summary).toContain("installed copy of the project");
}, 120_000);

test("once the tests import the checkout (an alias package among them), the check passes and doctor is clean", () => {
  const r = guard(["evidence", "--json"], root, { env: { PYTHONPATH: join(root, "src") } });
  expect(r.code, r.stderr).toBe(0);
  const check = JSON.parse(r.stdout).data.checks.find((c: { name: string }) => c.name === "tests-run-the-checkout");
  expect(check.ok).toBe(true);
  const doctor = guard(["doctor", "--json"], root);
  const ev = JSON.parse(doctor.stdout).data.checks.find((c: { id: string }) => c.id === "evidence.coverage");
  expect(ev.status).toBe("ok");
}, 120_000);
