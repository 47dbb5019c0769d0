import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { batchUnits, exactPattern, planUnits, type NamingRules } from "./name-filter.ts";
import { shellQuote, type RunnableTest, type Runner, type TestResult } from "./types.ts";

function modulePath(root: string): string | undefined {
  const p = join(root, "go.mod");
  if (!existsSync(p)) return undefined;
  return /^module\s+(\S+)/m.exec(readFileSync(p, "utf8"))?.[1];
}

/** Selector `dir:TestX` (src/graph/schema.ts) → package dir and test name. */
export function splitGoSelector(selector: string): { dir: string; name: string } {
  const i = selector.lastIndexOf(":");
  return i < 0 ? { dir: ".", name: selector } : { dir: selector.slice(0, i) || ".", name: selector.slice(i + 1) };
}

const dirOf = (file: string) => (file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : ".");

/** go's -run matches top-level test names; a package's pattern is exact when no other test there has a selected name. */
const goRules: NamingRules = { norm: (s) => s, keys: (p) => [p[0]!], runs: (p, keys) => keys.has(p[0]!) };

/**
 * go test: `-run '^(?:TestA|TestB)$'` per package (anchored, escaped). Packages share one command while
 * the shared pattern runs no test that was not selected; a package with a whole-package selection (a new
 * test file) runs without -run.
 */
export const goTest: Runner = {
  framework: "go",
  detect: (root) => existsSync(join(root, "go.mod")),
  owns: (t) => t.framework === "go" || (t.framework === "" && t.file.endsWith("_test.go")),
  plan(root, tests, _tmp, known = []) {
    if (tests === "all") return [{ framework: "go", argv: ["go", "test", "-json", "-count=1", "./..."], cwd: root, display: "go test ./..." }];
    const nameOf = (t: { selector: string; file: string }) => (t.selector.includes(":") ? splitGoSelector(t.selector) : { dir: dirOf(t.file), name: "" });
    const knownBy = new Map<string, { id: string; path: string[] }[]>();
    for (const k of known.filter((x) => goTest.owns(x))) {
      const { dir, name } = nameOf(k);
      if (name) (knownBy.get(dir) ?? knownBy.set(dir, []).get(dir)!).push({ id: k.id, path: [name] });
    }
    const dirs = [...new Set(tests.map((t) => nameOf(t).dir))].sort();
    const units = dirs.map((dir) => ({
      target: dir,
      selected: tests.filter((t) => nameOf(t).dir === dir).map((t) => ({ test: t, path: nameOf(t).name ? [nameOf(t).name] : undefined })),
      known: knownBy.get(dir) ?? [],
    }));
    const planned = planUnits(units, goRules);
    const raw = new Map(units.map((u) => [u.target, u.selected.flatMap((s) => s.path ?? [])]));
    const batches = batchUnits(planned, knownBy, new Set(tests.map((t) => t.id)), goRules, raw);
    const notes = planned.flatMap((u) => (u.note ? [u.note] : []));
    return batches.map((b) => {
      const pkgs = b.targets.map((d) => (d === "." ? "." : `./${d}`));
      const run = b.pattern ? ["-run", b.pattern] : [];
      const selected = tests.filter((t) => b.targets.includes(nameOf(t).dir));
      return { framework: "go", argv: ["go", "test", "-json", "-count=1", ...run, ...pkgs], cwd: root, display: `go test ${run.map(shellQuote).join(" ")} ${pkgs.join(" ")}`.replace(/\s+/g, " ").trim(), tests: selected, ...(b.pattern ? {} : notes.length ? { notes } : {}) };
    });
  },
  parse(plan, output) {
    const mod = modulePath(plan.cwd) ?? "";
    const results = new Map<string, TestResult>();
    const logs = new Map<string, string[]>();
    for (const line of output.split("\n")) {
      if (!line.startsWith("{")) continue;
      let ev: { Action?: string; Package?: string; Test?: string; Elapsed?: number; Output?: string };
      try {
        ev = JSON.parse(line);
      } catch {
        continue;
      }
      if (!ev.Test || !ev.Package) continue;
      const top = ev.Test.split("/")[0]!;
      const dir = ev.Package === mod ? "." : ev.Package.startsWith(`${mod}/`) ? ev.Package.slice(mod.length + 1) : ev.Package;
      const key = `${dir}:${top}`;
      if (ev.Action === "output" && ev.Output) (logs.get(key) ?? logs.set(key, []).get(key)!).push(ev.Output.trimEnd());
      if (ev.Test !== top) continue;
      if (ev.Action === "pass" || ev.Action === "fail" || ev.Action === "skip") {
        const outcome = ev.Action === "pass" ? "passed" : ev.Action === "fail" ? "failed" : "skipped";
        const msg = outcome === "failed" ? (logs.get(key) ?? []).find((l) => /_test\.go:\d+|panic:|Error/.test(l))?.trim() : undefined;
        results.set(key, { id: key, file: dir, name: top, outcome, durationMs: Math.round((ev.Elapsed ?? 0) * 1000), ...(msg ? { message: `${top}: ${msg}` } : {}) });
      }
    }
    return [...results.values()];
  },
  reproduce(_root, failed) {
    // A package, never a file: results named after the graph's tests carry their _test.go file.
    const pkg = (file: string) => (file.endsWith(".go") ? (file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : ".") : file);
    const dirs = [...new Set(failed.map((f) => pkg(f.file)).map((d) => (d === "." ? "." : `./${d}`)))];
    return `go test -run ${shellQuote(exactPattern(failed.slice(0, 5).map((f) => f.name)))} ${dirs.join(" ")}`;
  },
};

export type { RunnableTest };
