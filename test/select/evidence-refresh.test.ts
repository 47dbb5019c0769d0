// Evidence stays current without the user: after a commit, guard run (as the Stop and pre-commit gates
// do) finds its evidence older than HEAD and re-records the changed tests in the background.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { applyScenario } from "../../fixtures/select/project.ts";
import { python } from "../../fixtures/select/python.ts";
import { REFRESH_LIMIT_MS } from "../../src/act/evidence-refresh.ts";
import { openGraph } from "../../src/graph/open.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { guard, sh } from "../helpers/repo.ts";
import { preparedProject } from "./fixture.ts";

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
}, 60_000);
afterAll(() => engine?.stop());

const on = { GUARD_EVIDENCE_REFRESH: "1" };
const alive = (pid: number) => {
  try {
    return !readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.startsWith("Z");
  } catch {
    return false;
  }
};

async function evidenceShas(root: string): Promise<Record<string, string>> {
  const g = await openGraph(root);
  try {
    const { rows } = await g.roQuery("MATCH (t:Test) RETURN t.id AS id, t.evidence_sha AS sha");
    return Object.fromEntries(rows.map((r) => [String(r.id), String(r.sha)]));
  } finally {
    await g.close();
  }
}

test("a commit makes the evidence older than HEAD; the next guard run re-records the changed tests in the background, once per HEAD", async () => {
  const root = await preparedProject(python);
  const before = await evidenceShas(root);
  applyScenario(root, python.scenarios.find((s) => s.name === "helper-body")!);
  sh(["git", "commit", "-qam", "round cents differently"], root);
  const head = sh(["git", "rev-parse", "HEAD"], root).trim();

  const run = JSON.parse(guard(["run", "--json"], root, { env: on }).stdout);
  expect(run.data.evidenceRefresh).toBe("started");
  const record = JSON.parse(readFileSync(join(root, ".guard", "evidence-head.json"), "utf8"));
  expect(record.head).toBe(head);
  for (let i = 0; i < 600 && alive(record.pid); i++) await Bun.sleep(200);
  expect(alive(record.pid)).toBe(false);
  expect(readFileSync(join(root, ".guard", "evidence-refresh.log"), "utf8")).toContain("evidence");

  const after = await evidenceShas(root);
  // The tests covering round_cents were re-recorded at HEAD; a test that touches none of it kept its sha.
  expect(after["tests/test_money.py::test_round_cents"]).toBe(head);
  expect(after["tests/test_users.py::test_is_admin"]).toBe(before["tests/test_users.py::test_is_admin"]);

  const again = JSON.parse(guard(["run", "--json"], root, { env: on }).stdout);
  expect(again.data.evidenceRefresh).toBe("current");
}, 300_000);

test("a dirty tree is left alone, and select.refreshEvidence: false or GUARD_EVIDENCE_REFRESH=0 turns it off", async () => {
  const root = await preparedProject(python);
  applyScenario(root, python.scenarios.find((s) => s.name === "helper-body")!);
  sh(["git", "commit", "-qam", "round cents differently"], root);
  applyScenario(root, python.scenarios.find((s) => s.name === "docs-only")!);
  expect(JSON.parse(guard(["run", "--json"], root, { env: on }).stdout).data.evidenceRefresh).toBe("dirty");
  sh(["git", "checkout", "-q", "--", "."], root);
  expect(JSON.parse(guard(["run", "--json"], root, { env: { GUARD_EVIDENCE_REFRESH: "0" } }).stdout).data.evidenceRefresh).toBe("off");
  expect(existsSync(join(root, ".guard", "evidence-refresh.log"))).toBe(false);
}, 300_000);

test("a refresh stuck for over 30 minutes (a test that never ends) is stopped, not waited on for ever; any other process that took its pid is left alone", async () => {
  const root = await preparedProject(python);
  const head = sh(["git", "rev-parse", "HEAD"], root).trim();
  const file = join(root, ".guard", "evidence-head.json");
  const longAgo = new Date(Date.now() - REFRESH_LIMIT_MS - 60_000).toISOString();
  // Stand-ins, named as such: a process that looks like guard's refresh, and an unrelated one.
  const stuck = Bun.spawn(["bash", "-c", 'exec -a "guard evidence --changed" sleep 600'], { stdout: "ignore", stderr: "ignore" });
  const other = Bun.spawn(["sleep", "600"], { stdout: "ignore", stderr: "ignore" });
  try {
    await Bun.sleep(200);
    writeFileSync(file, JSON.stringify({ head, pid: other.pid, at: longAgo }));
    expect(JSON.parse(guard(["run", "--json"], root, { env: on }).stdout).data.evidenceRefresh).toBe("running");
    expect(alive(other.pid)).toBe(true);

    writeFileSync(file, JSON.stringify({ head, pid: stuck.pid, at: new Date().toISOString() }));
    expect(JSON.parse(guard(["run", "--json"], root, { env: on }).stdout).data.evidenceRefresh).toBe("running");

    writeFileSync(file, JSON.stringify({ head, pid: stuck.pid, at: longAgo }));
    expect(JSON.parse(guard(["run", "--json"], root, { env: on }).stdout).data.evidenceRefresh).toBe("stopped");
    await stuck.exited;
    expect(stuck.signalCode).toBe("SIGTERM");
    const events = readFileSync(join(root, ".guard", "events.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(events.some((e) => e.type === "evidence.refresh-stopped" && e.pid === stuck.pid)).toBe(true);
    // Not started again for this HEAD: it would hang the same way.
    expect(JSON.parse(guard(["run", "--json"], root, { env: on }).stdout).data.evidenceRefresh).toBe("current");
  } finally {
    stuck.kill("SIGKILL");
    other.kill("SIGKILL");
  }
}, 300_000);
