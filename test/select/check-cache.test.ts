// The idle-turn cache: `guard check` on an unchanged tree answers from `.guard/select-cache.json`, and
// anything that could change the answer (an edit of the same size, a commit, a staged view, a run, a
// background evidence refresh, a config file git does not see, Go's build environment, guard's periodic full
// run falling due)
// makes the next check decide again. A stale answer would hide a test the change needs.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { python } from "../../fixtures/select/python.ts";
import { readCache } from "../../src/decide/select/cache.ts";
import { checkKey } from "../../src/decide/select/fingerprint.ts";
import { recordEvidence } from "../../src/graph/evidence/record.ts";
import { openGraph } from "../../src/graph/open.ts";
import { indexRepository } from "../../src/graph/indexer.ts";
import { extractKey, readCachedExtract } from "../../src/code/extract-cache.ts";
import { guard, sh } from "../helpers/repo.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { preparedProject } from "./fixture.ts";

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
}, 60_000);
afterAll(() => engine?.stop());

interface Answer {
  cached: boolean;
  level: string;
  fingerprint: string;
  tests: { id: string }[];
  overrides: { code: string }[];
}
const check = (root: string, args: string[] = []): Answer => {
  const r = guard(["check", "--json", ...args], root);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout).data;
};
const ids = (a: Answer) => a.tests.map((t) => t.id);
const write = (root: string, path: string, from: string, to: string) => {
  const p = join(root, path);
  const text = readFileSync(p, "utf8");
  expect(text).toContain(from);
  writeFileSync(p, text.replace(from, to));
};
/** The check twice: decided, then answered from the cache with the same tests. */
const decidedThenCached = (root: string, args: string[] = []): Answer => {
  const first = check(root, args);
  expect(first.cached).toBe(false);
  const again = check(root, args);
  expect(again.cached).toBe(true);
  expect(ids(again)).toEqual(ids(first));
  return first;
};

describe("the check cache", () => {
  test("an edit of the same length right after a cached answer is decided again, and selects what it needs", async () => {
    const root = await preparedProject(python);
    write(root, "shop/users.py", 'return user.get("role") == "admin"', 'return user.get("role") == "owner"');
    expect(ids(decidedThenCached(root))).toContain("tests/test_users.py::test_is_admin");
    // `guard run` looks the check's answer up under the same key (what a full run's misses are measured against).
    expect(ids(readCache(root, checkKey(root).fingerprint)!.selection as Answer)).toContain("tests/test_users.py::test_is_admin");
    // Same size, same second: a stat-based shortcut would miss it; the fingerprint reads the bytes.
    sh(["git", "checkout", "-q", "--", "shop/users.py"], root);
    write(root, "shop/users.py", "return email.strip().lower()", "return email.strip().upper()");
    const other = check(root);
    expect(other.cached).toBe(false);
    expect(ids(other)).toContain("tests/test_users.py::test_normalize_email");
    expect(ids(other)).not.toContain("tests/test_users.py::test_is_admin");
  }, 240_000);

  test("a commit moves the base: the same text is decided against the new HEAD", async () => {
    const root = await preparedProject(python);
    write(root, "shop/money.py", "+ 0.5", "+ 0.4");
    const before = decidedThenCached(root);
    expect(ids(before)).toContain("tests/test_money.py::test_round_cents");
    sh(["git", "commit", "-qam", "round"], root);
    const clean = check(root);
    expect(clean.cached).toBe(false);
    expect(clean.fingerprint).not.toBe(before.fingerprint);
    expect(ids(clean)).not.toContain("tests/test_money.py::test_round_cents");
    // Back to the same text as the cached answer, but on another base: still not that answer.
    sh(["git", "reset", "-q", "--soft", "HEAD~1"], root);
    sh(["git", "reset", "-q"], root);
    const back = check(root);
    expect(back.fingerprint).toBe(before.fingerprint);
    // A check that first brings the graph forward to a new HEAD is answered from the cache next time.
    sh(["git", "commit", "-qam", "round again"], root);
    write(root, "shop/money.py", "+ 0.4", "+ 0.3");
    const afterCommit = check(root);
    expect(afterCommit.cached).toBe(false);
    expect(ids(afterCommit)).toContain("tests/test_money.py::test_round_cents");
    expect(check(root).cached).toBe(true);
  }, 240_000);

  test("the staged view and the working tree have answers of their own", async () => {
    const root = await preparedProject(python);
    write(root, "shop/money.py", "+ 0.5", "+ 0.4");
    expect(ids(decidedThenCached(root))).toContain("tests/test_money.py::test_round_cents");
    const staged = check(root, ["--staged"]);
    expect(staged.cached).toBe(false);
    expect(ids(staged)).not.toContain("tests/test_money.py::test_round_cents");
    sh(["git", "add", "shop/money.py"], root);
    const afterAdd = check(root, ["--staged"]);
    expect(afterAdd.cached).toBe(false);
    expect(ids(afterAdd)).toContain("tests/test_money.py::test_round_cents");
  }, 240_000);

  test("a run and a background evidence refresh bump the epoch: the next check decides again", async () => {
    const root = await preparedProject(python);
    write(root, "shop/money.py", "+ 0.5", "+ 0.4");
    decidedThenCached(root);
    expect(guard(["run", "--json"], root).code).not.toBe(2);
    expect(check(root).cached).toBe(false);
    expect(check(root).cached).toBe(true);
    // What the background refresh runs (src/act/evidence-refresh.ts): recordEvidence on the changed tests.
    const graph = await openGraph(root);
    try {
      await recordEvidence(root, { graph });
    } finally {
      await graph.close();
    }
    expect(check(root).cached).toBe(false);
  }, 300_000);

  test("Go's build environment (GOFLAGS, GOOS) is part of the answer: the files a build leaves out depend on it", async () => {
    const root = await preparedProject(python);
    write(root, "shop/money.py", "+ 0.5", "+ 0.4");
    decidedThenCached(root);
    const r = guard(["check", "--json"], root, { env: { GOFLAGS: "-tags=purego" } });
    expect(JSON.parse(r.stdout).data.cached).toBe(false);
  }, 240_000);

  test("config git does not see (.guard/config.json) changes the answer", async () => {
    const root = await preparedProject(python);
    write(root, "shop/money.py", "+ 0.5", "+ 0.4");
    expect(decidedThenCached(root).level).toBe("subset");
    mkdirSync(join(root, ".guard"), { recursive: true });
    // No full run recorded yet: select.fullRunHours makes one due at once.
    writeFileSync(join(root, ".guard", "config.json"), JSON.stringify({ select: { fullRunHours: 24 } }));
    const strict = check(root);
    expect(strict.cached).toBe(false);
    expect(strict.level).toBe("run-all");
    expect(strict.overrides.map((o) => o.code)).toContain("periodic-full-run");
    writeFileSync(join(root, ".guard", "config.json"), "{}");
    const relaxed = check(root);
    expect(relaxed.cached).toBe(false);
    expect(relaxed.level).toBe("subset");
  }, 240_000);

  test("an answer saved under select.fullRunHours expires when the periodic full run falls due", async () => {
    const root = await preparedProject(python);
    write(root, "shop/money.py", "+ 0.5", "+ 0.4");
    mkdirSync(join(root, ".guard"), { recursive: true });
    writeFileSync(join(root, ".guard", "config.json"), JSON.stringify({ select: { fullRunHours: 1 } }));
    // No full run recorded yet: due now, and it stays due until one runs (which bumps the epoch).
    const due = decidedThenCached(root);
    expect(due.overrides.map((o) => o.code)).toContain("periodic-full-run");
    expect(guard(["run", "--json"], root).code).not.toBe(2);
    const first = decidedThenCached(root);
    expect(first.overrides.map((o) => o.code)).not.toContain("periodic-full-run");
    expect(readCache(root, first.fingerprint, Date.now() + 30 * 60_000)).toBeDefined();
    expect(readCache(root, first.fingerprint, Date.now() + 61 * 60_000)).toBeUndefined();
  }, 300_000);

  test("the index update after a commit takes the committed file's extract from the check, and the graph is the same", async () => {
    const root = await preparedProject(python);
    write(root, "shop/money.py", "+ 0.5", "+ 0.4");
    expect(check(root).cached).toBe(false);
    const text = readFileSync(join(root, "shop/money.py"), "utf8");
    expect(readCachedExtract(root, extractKey("shop/money.py", text), "shop/money.py")).toBeDefined();
    sh(["git", "commit", "-qam", "round"], root);
    const graph = await openGraph(root);
    try {
      const update = await indexRepository(root, graph);
      expect(update.parsed).toBe(1);
      expect(update.keptExtracts).toBe(1);
      // A full re-parse finds nothing to change: the kept extract is what parsing gives.
      const full = await indexRepository(root, graph, { full: true });
      expect(full.keptExtracts).toBe(0);
      expect(full.changes).toEqual({ nodesCreated: 0, nodesUpdated: 0, nodesDeleted: 0, edgesCreated: 0, edgesUpdated: 0, edgesDeleted: 0 });
    } finally {
      await graph.close();
    }
  }, 240_000);

  test("the kept test list follows the graph: a test recorded after the last check is selected by the next one", async () => {
    const root = await preparedProject(python);
    write(root, "shop/money.py", "+ 0.5", "+ 0.4");
    expect(check(root).cached).toBe(false);
    const listPath = join(root, ".guard", "select-tests.json");
    expect(JSON.parse(readFileSync(listPath, "utf8")).tests.map((t: { id: string }) => t.id)).not.toContain("tests/test_extra.py::test_extra");
    sh(["git", "checkout", "-q", "--", "shop/money.py"], root);
    writeFileSync(join(root, "tests", "test_extra.py"), "from shop.money import round_cents\n\n\ndef test_extra():\n    assert round_cents(2.0) == 2.0\n");
    sh(["git", "add", "-A"], root);
    sh(["git", "commit", "-qm", "another test"], root);
    expect(guard(["evidence"], root).code).toBe(0);
    write(root, "shop/money.py", "+ 0.5", "+ 0.4");
    const next = check(root);
    expect(next.cached).toBe(false);
    expect(ids(next)).toContain("tests/test_extra.py::test_extra");
    // A damaged list is asked for again.
    writeFileSync(listPath, "{ damaged");
    write(root, "shop/money.py", "+ 0.4", "+ 0.3");
    expect(ids(check(root))).toContain("tests/test_extra.py::test_extra");
    expect(JSON.parse(readFileSync(listPath, "utf8")).tests.length).toBeGreaterThan(0);
  }, 300_000);
});
