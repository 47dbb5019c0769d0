import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { guard } from "../helpers/repo.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
}, 60_000);
afterAll(() => engine?.stop());

test("guard demo (default scenario): same-file misses the break, guard's subset catches it", () => {
  const dir = join(mkdtempSync(join(tmpdir(), "guard-demo-test-")), "shop");
  const r = guard(["demo", "--dir", dir, "--json"], tmpdir());
  expect(r.code).toBe(0);
  const out = JSON.parse(r.stdout);
  expect(out.data.scenario).toBe("select");
  expect(out.data.asExpected).toBe(true);
  expect(out.data.sameFile.failed).toEqual([]);
  expect(out.data.guard.failed).toEqual(["tests/test_cart.py::test_subtotal_rounds_half_up", "tests/test_invoice.py::test_vat_rounds_half_up"]);
  expect(out.data.guard.run.length).toBeLessThan(out.data.tests);
  const human = guard(["demo"], tmpdir());
  expect(human.code).toBe(0);
  expect(human.stdout).toContain("→ passes: the break ships");
  expect(human.stdout).toContain("→ catches it: 2 failing");
}, 180_000);
