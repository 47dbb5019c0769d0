// The corpus smoke subset: three small projects of the real-project corpus (bench/corpus-projects.ts), one
// per ecosystem, fetched through their registries at the corpus's pinned versions and cached outside the
// repository like the session projects. On each: guard init, one edit that breaks a known test, and guard
// check must answer a subset holding that test. Slow end-to-end group: real packages, real runners, the
// real embedded engine, guard as a whole process.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { CORPUS, slug } from "../../bench/corpus-projects.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { guard, sh } from "../helpers/repo.ts";

const DOWNLOADS = join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "guard-test-projects", "corpus");

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
}, 120_000);
afterAll(() => engine?.stop());

interface Smoke {
  project: string;
  file: string;
  /** One replacement in `file`, which makes `breaks` fail. */
  edit: [string, string];
  breaks(id: string): boolean;
}

const SMOKES: Smoke[] = [
  // idna's label length limit moves from 63 to 62: test_valid_label_length asserts 63 is valid.
  { project: "idna", file: "idna/core.py", edit: ["    if len(label) > 63:", "    if len(label) > 62:"], breaks: (id) => id === "tests/test_idna.py::IDNATests.test_valid_label_length" },
  // FastifyError.toString loses its brackets: "FastifyError.toString returns code" compares the text.
  { project: "@fastify/error", file: "index.js", edit: ["return `${this.name} [${this.code}]: ${this.message}`", "return `${this.name} (${this.code}): ${this.message}`"], breaks: (id) => id.startsWith("test/index.test.js::") && id.includes("toString returns code") },
  // Original() returns the normalised text ("1.0" becomes "1.0.0"): TestOriginal compares it with the input.
  { project: "github.com/Masterminds/semver/v3", file: "version.go", edit: ["Original() string {\n\treturn v.original", "Original() string {\n\treturn v.String()"], breaks: (id) => id.endsWith("::TestOriginal") },
];

function build(name: string): string {
  const p = CORPUS.find((c) => c.name === name || `github.com/${c.name}` === name);
  if (!p) throw new Error(`${name} is not in the corpus`);
  mkdirSync(DOWNLOADS, { recursive: true });
  const root = mkdtempSync(join(tmpdir(), `guard-corpus-${slug(p)}-`));
  p.fetch(root, DOWNLOADS);
  writeFileSync(join(root, ".gitignore"), "__pycache__/\n.pytest_cache/\n*.egg-info/\nnode_modules\n.guard/\n");
  sh(["git", "init", "-q", "-b", "main"], root);
  sh(["git", "add", "-A"], root);
  sh(["git", "commit", "-q", "-m", `${p.name} ${p.version}`], root);
  return root;
}

describe("corpus smoke: init, one edit, the breaking test selected", () => {
  for (const s of SMOKES)
    test(s.project, () => {
      const root = build(s.project);
      try {
        play(s, root);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    }, 600_000);
});

/** init, the edit, check (a subset holding the breaking test), run (that test fails). */
function play(s: Smoke, root: string) {
  const init = guard(["init", "--hooks", "none", "--json"], root);
  expect(init.code).toBe(0);
  const path = join(root, s.file);
  const text = readFileSync(path, "utf8");
  expect(text.split(s.edit[0]).length - 1).toBe(1);
  writeFileSync(path, text.replace(s.edit[0], s.edit[1]));
  const r = guard(["check", "--json"], root);
  expect(r.code).toBe(0);
  const sel = JSON.parse(r.stdout).data as { level: string; fault?: unknown; tests: { id: string }[]; estimate: { totalTests: number } };
  expect(sel.fault).toBeUndefined();
  expect(sel.level).toBe("subset");
  expect(sel.tests.some((t) => s.breaks(t.id))).toBe(true);
  expect(sel.tests.length).toBeLessThan(sel.estimate.totalTests);
  // The edit does break that test: guard run runs the selection and sees it fail.
  const run = JSON.parse(guard(["run", "--json"], root).stdout).data as { results: { id: string; outcome: string }[] };
  expect(run.results.some((t) => s.breaks(t.id) && t.outcome === "failed")).toBe(true);
}
