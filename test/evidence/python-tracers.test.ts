// On Python 3.12+ guard's pytest plugin records lines with sys.monitoring instead of coverage.py's tracer
// (a third of the cost on the corpus). The evidence must not change with it: the Python fixture's golden
// (written from coverage.py on the machine's python3) holds on 3.12, and on shapes where the two could part
// (a source file loaded twice as two modules, a thread, a generator, a session fixture, a module imported
// inside a test, a 1,200-line table module) both recorders give the same edges with the same lines; a code
// object too large for line events is credited whole (more lines, never fewer). Real pytest on a real Python 3.12
// (setup.sh installs pytest into it), a real engine.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PYTHON_FILES } from "../../fixtures/evidence/python/build.ts";
import { buildRepo } from "../../fixtures/evidence/repo.ts";
import type { Graph } from "../../src/graph/client.ts";
import { decodeLines } from "../../src/graph/evidence/line-sets.ts";
import { recordEvidence } from "../../src/graph/evidence/record.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { golden, graphEvidence } from "./golden.ts";

const GOLDEN = join(import.meta.dir, "..", "..", "fixtures", "evidence", "python", "golden.json");

/** A Python with sys.monitoring, pytest and coverage.py, looked for as scripts/setup.sh --dev does. */
function modernPython(): string | undefined {
  const pyenv = join(process.env.PYENV_ROOT ?? join(process.env.HOME ?? "/root", ".pyenv"), "versions");
  const r = Bun.spawnSync(["bash", "-c", `for c in python3.12 python3.13 ${pyenv}/3.12.*/bin/python3.12 ${pyenv}/3.13.*/bin/python3.13; do "$c" -c "import sys, pytest, coverage; sys.monitoring; print(sys.executable)" 2>/dev/null && break; done`], { stdout: "pipe", stderr: "ignore" });
  return r.stdout.toString().trim() || undefined;
}

let engine: TestEngine;
let venv: string;
beforeAll(async () => {
  engine = await startTestEngine();
  const python = modernPython();
  if (!python) throw new Error("no Python 3.12+ with pytest found: run ./scripts/setup.sh --dev (it installs pytest into python3.12 where there is one)");
  // guard finds the interpreter as $VIRTUAL_ENV's bin/python.
  venv = mkdtempSync(join(tmpdir(), "guard-py312-"));
  mkdirSync(join(venv, "bin"));
  symlinkSync(python, join(venv, "bin", "python"));
}, 60_000);
afterAll(async () => {
  await engine?.stop();
});

async function record(dir: string, graph: Graph, tracer?: "coverage") {
  const saved = { VIRTUAL_ENV: process.env.VIRTUAL_ENV, GUARD_EVIDENCE_TRACER: process.env.GUARD_EVIDENCE_TRACER };
  process.env.VIRTUAL_ENV = venv;
  if (tracer) process.env.GUARD_EVIDENCE_TRACER = tracer;
  else delete process.env.GUARD_EVIDENCE_TRACER;
  try {
    return await recordEvidence(dir, { graph });
  } finally {
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
}

/** Every COVERED_BY edge with the lines it keeps, and the import-time lines of each function. */
async function edgesWithLines(graph: Graph): Promise<string[]> {
  const { rows } = await graph.roQuery(`MATCH (f:Function)-[r:COVERED_BY {source: "coverage"}]->(t:Test) RETURN f.id AS f, t.id AS t, r.lines AS lines`);
  const imports = await graph.roQuery(`MATCH (f:Function) WHERE f.import_lines > 0 RETURN f.id AS f, f.import_lines AS n`);
  return [...rows.map((r) => `${r.t} <- ${r.f} [${r.lines ?? ""}]`), ...imports.rows.map((r) => `import ${r.f} ${r.n}`)].sort();
}

// A generated table module: a code object of 1,200 lines, which the sys.monitoring recorder credits whole
// (line events in a code object that size cost CPython tens of microseconds each).
const TABLE = Array.from({ length: 1200 }, (_, i) => `T${i} = ${i} * 2\n`).join("") + "\n\ndef lookup(i):\n    return globals()['T%d' % i]\n";
// A function of 1,100 lines with a branch no test takes: credited whole, so more lines than ran, never fewer.
const BIG = `def big(flag):\n    x = 0\n${Array.from({ length: 1100 }, (_, i) => `    x += ${i}\n`).join("")}    if flag:\n        x = -1\n    return x\n`;

const SHAPES: Record<string, string> = {
  "pkg/table.py": TABLE,
  "pkg/twice.py": "def ident(x):\n    if x:\n        return x\n    return None\n",
  "pkg/flow.py": `import threading


def numbers(n):
    for i in range(n):
        yield i * 2


def in_thread(values):
    out = []

    def work():
        out.extend(numbers(values))

    t = threading.Thread(target=work)
    t.start()
    t.join()
    return out
`,
  "tests/conftest.py": `import pytest

from pkg.flow import numbers


@pytest.fixture(scope="session")
def table():
    return list(numbers(3))
`,
  "tests/test_shapes_more.py": `import importlib.util
import pathlib

from pkg.flow import in_thread


def _load_again(name):
    path = pathlib.Path(__file__).parent.parent / "pkg" / "twice.py"
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_first_copy():
    assert _load_again("copy_one").ident(1) == 1


def test_second_copy():
    assert _load_again("copy_two").ident(0) is None


def test_thread():
    assert in_thread(3) == [0, 2, 4]


def test_table(table):
    assert table == [0, 2, 4]


def test_table_again(table):
    assert len(table) == 3


def test_lookup():
    from pkg.table import lookup

    assert lookup(3) == 6
`,
};

test("on Python 3.12+ the fixture's evidence is the golden coverage.py gives, recorded by sys.monitoring", async () => {
  const dir = join(mkdtempSync(join(tmpdir(), "guard-ev-py312-")), "repo");
  buildRepo(dir, PYTHON_FILES);
  const graph = engine.graph();
  const report = await record(dir, graph);
  expect(report.notes).toContain("line tracer: sys.monitoring");
  expect(report.checks.every((c) => c.ok), JSON.stringify(report.checks)).toBe(true);
  const actual = await graphEvidence(graph);
  expect(actual).toEqual(golden(GOLDEN, actual));
}, 120_000);

test("sys.monitoring and coverage.py give the same edges and lines, on shapes where recorders part", async () => {
  const dir = join(mkdtempSync(join(tmpdir(), "guard-ev-tracers-")), "repo");
  buildRepo(dir, { ...PYTHON_FILES, ...SHAPES });
  const byMonitoring = engine.graph();
  const m = await record(dir, byMonitoring);
  expect(m.notes).toContain("line tracer: sys.monitoring");
  const byCoverage = engine.graph();
  const c = await record(dir, byCoverage, "coverage");
  expect(c.notes.some((n) => n.startsWith("line tracer: coverage.py"))).toBe(true);
  const lines = await edgesWithLines(byMonitoring);
  expect(lines).toEqual(await edgesWithLines(byCoverage));
  // The shapes are in it: both copies of the twice-loaded file, the thread's and the session fixture's lines.
  const covering = (fn: string) => lines.filter((l) => l.includes(` <- ${fn} [`)).map((l) => l.split(" <- ")[0]);
  expect(covering("pkg/twice.py::ident")).toEqual(["tests/test_shapes_more.py::test_first_copy", "tests/test_shapes_more.py::test_second_copy"]);
  expect(covering("pkg/flow.py::in_thread.work")).toEqual(["tests/test_shapes_more.py::test_thread"]);
  expect(covering("pkg/flow.py::numbers")).toEqual(["tests/test_shapes_more.py::test_table", "tests/test_shapes_more.py::test_table_again", "tests/test_shapes_more.py::test_thread"]);
  expect(covering("pkg/table.py::lookup")).toEqual(["tests/test_shapes_more.py::test_lookup"]);
  // Imported inside that test, the table's 1,200 module lines are its own (and the same under both).
  expect(covering("pkg/table.py::<module>")).toEqual(["tests/test_shapes_more.py::test_lookup"]);
  expect(existsSync(join(dir, ".coverage"))).toBe(false);
}, 120_000);

test("a code object too large for line events is credited whole: the same tests, more lines than ran, never fewer", async () => {
  const dir = join(mkdtempSync(join(tmpdir(), "guard-ev-large-")), "repo");
  buildRepo(dir, { "pkg/__init__.py": "", "pkg/big.py": BIG, "tests/test_big.py": "from pkg.big import big\n\n\ndef test_big():\n    assert big(False) == sum(range(1100))\n\n\ndef test_other():\n    assert True\n" });
  const byMonitoring = engine.graph();
  await record(dir, byMonitoring);
  const byCoverage = engine.graph();
  await record(dir, byCoverage, "coverage");
  const edges = async (graph: Graph) => (await graph.roQuery(`MATCH (f:Function {id: "pkg/big.py::big"})-[r:COVERED_BY]->(t:Test) RETURN t.id AS t, r.lines AS lines`)).rows;
  const [m] = await edges(byMonitoring);
  const [c] = await edges(byCoverage);
  expect([m?.t, c?.t]).toEqual(["tests/test_big.py::test_big", "tests/test_big.py::test_big"]);
  const ran = (v: unknown) => new Set((decodeLines(String(v)) ?? []).flatMap(([a, b]) => Array.from({ length: b - a + 1 }, (_, i) => a + i)));
  const mLines = ran(m!.lines);
  const cLines = ran(c!.lines);
  expect([...cLines].every((l) => mLines.has(l))).toBe(true);
  // The untaken `x = -1` counts under sys.monitoring only.
  expect(mLines.size).toBe(cLines.size + 1);
}, 120_000);
