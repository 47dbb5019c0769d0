// pytest evidence recorded by several pytest processes at once, each running its share of the collected
// tests: real pytest + coverage, real git repositories built here. The evidence must be what one process
// records, tests that only fail side by side must end as under the plain runner, and what a broken file
// or a dead process costs is named, never dropped.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildRepo } from "../../fixtures/evidence/repo.ts";
import { evidenceParallelism } from "../../src/graph/evidence/pool.ts";
import { recordPytest } from "../../src/graph/evidence/python/record.ts";
import { recordEvidence } from "../../src/graph/evidence/record.ts";
import type { Evidence } from "../../src/graph/evidence/types.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";

const tmp = (name: string) => mkdtempSync(join(tmpdir(), `guard-shards-${name}-`));

/** Every test appends its process id and node id to $PID_LOG (outside the repository, so it is no data file). */
const CONFTEST = `import os

import pytest


@pytest.fixture(autouse=True)
def log_pid(request):
    with open(os.environ["PID_LOG"], "a") as f:
        f.write("%d %s\\n" % (os.getpid(), request.node.nodeid))
    yield
`;

const SUITE: Record<string, string> = {
  "pkg/__init__.py": "",
  "pkg/geometry.py": `def factor():
    return 10


SCALE = factor()


def scale(x):
    return x * SCALE


class Grid:
    def __init__(self, n):
        self.n = n

    def cells(self):
        return self.n * self.n
`,
  "pkg/store.py": `class Store:
    def __init__(self):
        self.items = {}

    def put(self, key, value):
        self.items[key] = value

    def get(self, key):
        return self.items.get(key)


def open_store():
    store = Store()
    store.put("seed", 1)
    return store
`,
  "tests/__init__.py": "",
  "tests/conftest.py": CONFTEST,
  // Nine of the twelve items: more than one process's share, so it is cut in two (by sorted node id):
  // test_scale's five cases run in one process, test_stored's four in the other, both with the module fixture.
  "tests/test_scale.py": `import pytest

from pkg.geometry import scale
from pkg.store import open_store


@pytest.fixture(scope="module")
def store():
    return open_store()


@pytest.mark.parametrize("x", range(5))
def test_scale(x, store):
    assert scale(x) == x * 10


@pytest.mark.parametrize("key", ["seed", "seed", "seed", "seed"])
def test_stored(key, store):
    assert store.get(key) == 1
`,
  "tests/test_grid.py": `import pytest

from pkg.geometry import Grid


class TestGrid:
    @pytest.fixture(scope="class")
    def grid(self):
        return Grid(3)

    def test_cells(self, grid):
        assert grid.cells() == 9

    def test_n(self, grid):
        assert grid.n == 3


def test_function():
    assert Grid(2).cells() == 4
`,
};

/** Evidence with its maps in a stable order and without durations and notes, to compare two recordings. */
function canonical(ev: Evidence): unknown {
  const sorted = (o: unknown): unknown =>
    Array.isArray(o) ? o.map(sorted) : o && typeof o === "object" ? Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, sorted(v)])) : o;
  return sorted({ ...ev, tests: ev.tests.map((t) => ({ ...t, durationMs: 0 })), notes: [] });
}

/** The process id each test ran in, one entry per test run, in the order they ran. */
const readPids = (log: string): { pid: string; nodeid: string }[] =>
  readFileSync(log, "utf8").trim().split("\n").map((l) => ({ pid: l.split(" ")[0]!, nodeid: l.slice(l.indexOf(" ") + 1) }));

async function withPidLog<T>(run: () => Promise<T>, env: Record<string, string> = {}): Promise<{ result: T; runs: { pid: string; nodeid: string }[]; pids: string[] }> {
  const log = join(tmp("pids"), "pids");
  Object.assign(process.env, env, { PID_LOG: log });
  try {
    const result = await run();
    const runs = readPids(log);
    return { result, runs, pids: runs.map((r) => r.pid) };
  } finally {
    for (const k of [...Object.keys(env), "PID_LOG"]) delete process.env[k];
  }
}

async function recordWithPids(root: string, parallel: number): Promise<{ ev: Evidence; pids: string[] }> {
  const { result, pids } = await withPidLog(() => recordPytest({ root, parallel }));
  return { ev: result, pids };
}

describe("pytest in several processes", () => {
  test("two processes record the same evidence per test as one: classes, functions, a module fixture, import-time code, parameters", async () => {
    const root = join(tmp("same"), "repo");
    buildRepo(root, SUITE);
    const one = await recordWithPids(root, 1);
    const two = await recordWithPids(root, 2);
    expect(new Set(one.pids).size).toBe(1);
    expect(new Set(two.pids).size).toBe(2);
    // Every item ran exactly once, in one of the two processes.
    expect(two.pids.length).toBe(12);
    expect(two.ev.notes).toContain("pytest: 2 processes at once, each running its share of the tests");
    expect(canonical(two.ev)).toEqual(canonical(one.ev));
    // The module fixture ran in both processes and counts for every test that used it.
    expect(two.ev.coverage["tests/test_scale.py::test_scale"]?.["pkg/store.py"]).toEqual([3, 6, 13, 14, 15]);
    expect(two.ev.coverage["tests/test_scale.py::test_stored"]?.["pkg/store.py"]).toEqual([3, 6, 9, 13, 14, 15]);
    expect(two.ev.moduleLevel["pkg/geometry.py"]).toContain(5);
    expect(two.ev.tests.every((t) => t.outcome === "passed")).toBe(true);
  }, 120_000);

  test("two tests that fail when they run at the same time end passed, with evidence", async () => {
    const root = join(tmp("lock"), "repo");
    // Each test waits until the other has started, then takes an exclusive lock file for 3 s.
    const lockTest = (me: string, other: string) => `import os
import time

from pkg.lock import hold


def test_${me}():
    meet = os.environ["MEET_DIR"]
    open(os.path.join(meet, "${me}"), "w").close()
    deadline = time.time() + 30
    while not os.path.exists(os.path.join(meet, "${other}")) and time.time() < deadline:
        time.sleep(0.02)
    hold(os.path.join(meet, "lock"), 3)
`;
    buildRepo(root, {
      "pkg/__init__.py": "",
      "pkg/lock.py": `import os
import time


def hold(path, seconds):
    fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    try:
        time.sleep(seconds)
    finally:
        os.close(fd)
        os.unlink(path)
`,
      "tests/test_first.py": lockTest("first", "second"),
      "tests/test_second.py": lockTest("second", "first"),
    });
    process.env.MEET_DIR = tmp("meet");
    let ev: Evidence;
    try {
      ev = await recordPytest({ root, parallel: 2 });
    } finally {
      delete process.env.MEET_DIR;
    }
    expect(ev.tests.map((t) => [t.id, t.outcome])).toEqual([
      ["tests/test_first.py::test_first", "passed"],
      ["tests/test_second.py::test_second", "passed"],
    ]);
    // Whichever of the two lost the race runs again, after the test the suite runs before it if it has one.
    expect(ev.notes.some((n) => /^pytest: 1 test\(s\) that failed in a shard or that no shard reported ran again in one process( after the 1 the suite runs before them)?; 0 failed there too$/.test(n))).toBe(true);
    for (const t of ev.tests) expect(ev.coverage[t.id]?.["pkg/lock.py"]).toEqual([6, 7, 8, 10, 11]);
  }, 120_000);

  test("a file that fails to collect: the other files' evidence is kept and the broken one is named", async () => {
    const root = join(tmp("broken"), "repo");
    buildRepo(root, {
      "app/__init__.py": "",
      "app/calc.py": "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n",
      "tests/test_add.py": "from app.calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
      "tests/test_sub.py": "from app.calc import sub\n\n\ndef test_sub():\n    assert sub(3, 2) == 1\n",
      "tests/test_broken.py": "import a_module_that_does_not_exist\n\n\ndef test_never_collected():\n    pass\n",
    });
    const ev = await recordPytest({ root, parallel: 2 });
    expect(ev.tests.map((t) => [t.id, t.outcome])).toEqual([
      ["tests/test_add.py::test_add", "passed"],
      ["tests/test_sub.py::test_sub", "passed"],
    ]);
    expect(ev.coverage["tests/test_add.py::test_add"]?.["app/calc.py"]).toEqual([2]);
    expect(ev.coverage["tests/test_sub.py::test_sub"]?.["app/calc.py"]).toEqual([6]);
    expect(ev.uncollected).toEqual(["tests/test_broken.py"]);
    expect(ev.notes.join("\n")).toContain("pytest could not collect 1 file(s)");
    expect(ev.notes.join("\n")).not.toContain("ran again");
  }, 120_000);

  test("a process killed mid-run: the others' evidence is kept, the test that kills it is named and its file runs on every change", async () => {
    const root = join(tmp("crash"), "repo");
    buildRepo(root, {
      "app/__init__.py": "",
      "app/calc.py": "def add(a, b):\n    return a + b\n",
      "tests/test_crash.py": "import os\nimport signal\n\nfrom app.calc import add\n\n\ndef test_after():\n    assert add(1, 1) == 2\n\n\ndef test_dies():\n    os.kill(os.getpid(), signal.SIGKILL)\n",
      "tests/test_ok.py": "from app.calc import add\n\n\ndef test_fine():\n    assert add(2, 2) == 4\n",
    });
    const ev = await recordPytest({ root, parallel: 2 });
    expect(ev.tests.map((t) => [t.id, t.outcome])).toEqual([
      ["tests/test_crash.py::test_after", "passed"],
      ["tests/test_ok.py::test_fine", "passed"],
    ]);
    expect(ev.coverage["tests/test_ok.py::test_fine"]?.["app/calc.py"]).toEqual([2]);
    expect(ev.uncollected).toEqual(["tests/test_crash.py"]);
    const notes = ev.notes.join("\n");
    expect(notes).toContain("pytest process 2 of 2 was killed by SIGKILL: the tests it did not report ran again in one process");
    expect(notes).toContain("pytest: 1 test(s) were reported by no process (the run again was killed by SIGKILL), so they have no evidence: tests/test_crash.py::test_dies");
    expect(notes).toContain("tests/test_crash.py::test_dies");
  }, 120_000);

  test("a project that runs xdist itself (-n in addopts) is not split again: every test runs once", async () => {
    const root = join(tmp("xdist"), "repo");
    buildRepo(root, { ...SUITE, "pytest.ini": "[pytest]\naddopts = -n 2\n" });
    const { ev, pids } = await recordWithPids(root, 2);
    expect(pids.length).toBe(12);
    expect(ev.notes.join("\n")).not.toContain("processes at once");
    expect(ev.tests.length).toBe(5);
    expect(ev.tests.every((t) => t.outcome === "passed" && ev.coverage[t.id])).toBe(true);
  }, 120_000);
});

test("with PYTHONDONTWRITEBYTECODE set, the processes share bytecode in .guard/pycache and the project's tree gets none", async () => {
  const root = join(tmp("pyc"), "repo");
  buildRepo(root, SUITE);
  const before = process.env.PYTHONDONTWRITEBYTECODE;
  process.env.PYTHONDONTWRITEBYTECODE = "1";
  try {
    await recordWithPids(root, 2);
  } finally {
    if (before === undefined) delete process.env.PYTHONDONTWRITEBYTECODE;
    else process.env.PYTHONDONTWRITEBYTECODE = before;
  }
  const files = (dir: string) => [...new Bun.Glob("**/*.pyc").scanSync({ cwd: dir, dot: true })];
  // pytest's rewritten test modules (tests/test_scale.cpython-311-pytest-9.2.0.pyc) and the package's own.
  const cached = files(join(root, ".guard", "pycache")).map((f) => f.slice(f.indexOf("/repo/") + 6));
  expect(cached.filter((f) => /^tests\/test_scale\.cpython-\d+-pytest-[\d.]+\.pyc$/.test(f))).toHaveLength(1);
  expect(cached.filter((f) => /^pkg\/geometry\.cpython-\d+\.pyc$/.test(f))).toHaveLength(1);
  expect(files(root).filter((f) => !f.startsWith(".guard/"))).toEqual([]);
}, 120_000);

describe("the setting", () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.stop());

  test("evidence.parallel: 1 in guard.json records in one process; GUARD_EVIDENCE_PARALLEL overrides it", async () => {
    const root = join(tmp("setting"), "repo");
    buildRepo(root, { ...SUITE, "guard.json": JSON.stringify({ evidence: { parallel: 1 } }) });
    const pidsOf = async (env: Record<string, string>) => {
      const { result, pids } = await withPidLog(() => recordEvidence(root, { graph: engine.graph() }), env);
      return { report: result, pids: new Set(pids) };
    };
    const configured = await pidsOf({});
    expect(configured.pids.size).toBe(1);
    expect(configured.report.notes.join("\n")).not.toContain("processes at once");
    expect(configured.report.tests.passed).toBe(5);
    const overridden = await pidsOf({ GUARD_EVIDENCE_PARALLEL: "2" });
    expect(overridden.pids.size).toBe(2);
    expect(overridden.report.notes).toContain("pytest: 2 processes at once, each running its share of the tests");
  }, 120_000);

  test("a second recording weighs the shares by the first one's durations: a slow test gets a process of its own", async () => {
    const root = join(tmp("durations"), "repo");
    const fast = (n: number) => Array.from({ length: 3 }, (_, i) => `def test_${n}_${i}():\n    assert True\n`).join("\n\n");
    buildRepo(root, {
      "tests/conftest.py": CONFTEST,
      "tests/test_fast.py": fast(1),
      "tests/test_fast2.py": fast(2),
      // Over two seconds: enough test time for two processes (under a second is one; next test).
      "tests/test_slow.py": "import time\n\n\ndef test_slow():\n    time.sleep(2.2)\n",
    });
    const graph = engine.graph();
    const withSlow = (runs: { pid: string; nodeid: string }[]) => {
      const pid = runs.find((r) => r.nodeid === "tests/test_slow.py::test_slow")!.pid;
      return runs.filter((r) => r.pid === pid).map((r) => r.nodeid).sort();
    };
    // By count: three and one against three.
    const first = await withPidLog(() => recordEvidence(root, { graph, parallel: 2 }));
    expect(withSlow(first.runs)).toEqual(["tests/test_fast.py::test_1_0", "tests/test_fast.py::test_1_1", "tests/test_fast.py::test_1_2", "tests/test_slow.py::test_slow"]);
    const second = await withPidLog(() => recordEvidence(root, { graph, parallel: 2 }));
    expect(withSlow(second.runs)).toEqual(["tests/test_slow.py::test_slow"]);
    expect(second.result.tests.passed).toBe(7);
  }, 120_000);

  test("a suite whose tests took under a second last time is recorded in one process: a second one would cost more than it saves", async () => {
    const root = join(tmp("small"), "repo");
    buildRepo(root, SUITE);
    const graph = engine.graph();
    const first = await withPidLog(() => recordEvidence(root, { graph, parallel: 2 }));
    expect(new Set(first.pids).size).toBe(2);
    const second = await withPidLog(() => recordEvidence(root, { graph, parallel: 2 }));
    expect(new Set(second.pids).size).toBe(1);
    expect(second.result.notes.join("\n")).not.toContain("processes at once");
    expect(second.result.tests.passed).toBe(5);
  }, 120_000);

  test("0 means one per core; anything but a whole number is a one-line error", () => {
    const root = join(tmp("bad"), "repo");
    buildRepo(root, { "guard.json": JSON.stringify({ evidence: { parallel: 0 } }) });
    expect(evidenceParallelism(root, {})).toBe(Math.max(1, navigator.hardwareConcurrency ?? 2));
    expect(evidenceParallelism(root, { GUARD_EVIDENCE_PARALLEL: "3" })).toBe(3);
    expect(() => evidenceParallelism(root, { GUARD_EVIDENCE_PARALLEL: "two" })).toThrow('GUARD_EVIDENCE_PARALLEL="two": expected a whole number of processes (0 = one per core)');
    const bad = join(tmp("bad3"), "repo");
    buildRepo(bad, { "guard.json": JSON.stringify({ evidence: { parallel: -1 } }) });
    expect(() => evidenceParallelism(bad, {})).toThrow("guard.json at `evidence.parallel`: expected whole number of processes (0 = one per core)");
  });
});
