import { GuardError } from "../../kernel/errors.ts";
import { EXIT } from "../../kernel/exit-codes.ts";
import { estimate } from "./decide.ts";
import type { EvidenceView, TestInfo } from "./evidence.ts";
import type { Selection, SelectedTest, SelectionReason } from "./selection.ts";
import type { Thresholds } from "./trust.ts";

/**
 * `guard check <paths…>`: the tests that cover these files whatever the diff says (what `jest
 * --findRelatedTests` and testmon users ask): every test whose recorded coverage runs a function of the
 * file, the tests defined in it, the tests of test files importing it, and the tests that read a non-code
 * file. A path the graph has never seen is a usage error, not an empty answer.
 */
export async function relatedTests(view: EvidenceView, paths: string[], thresholds: Thresholds): Promise<Selection> {
  const started = performance.now();
  const all = await view.tests();
  const byId = new Map(all.map((t) => [t.id, t]));
  const chosen = new Map<string, SelectedTest>();
  const choose = (t: TestInfo | undefined, reason: SelectionReason) => {
    if (!t) return;
    const s = chosen.get(t.id) ?? { id: t.id, file: t.file, name: t.name, framework: t.framework, selector: t.selector, ...(t.durationMs !== undefined ? { durationMs: t.durationMs } : {}), reasons: [] };
    if (!s.reasons.some((r) => r.code === reason.code && r.file === reason.file && r.function === reason.function)) s.reasons.push(reason);
    chosen.set(t.id, s);
  };
  const known = await view.fileShas(paths);
  const readers = await view.readers(paths.filter((p) => !known.has(p)));
  for (const path of paths) {
    if (!known.has(path)) {
      const ids = readers.get(path) ?? [];
      if (ids.length === 0) throw new GuardError(`${path} is not in the graph`, "guard indexes source and test files, and records which tests read other files", "check the path (relative to the repository root), or run `guard index`", EXIT.USAGE, "E_USAGE");
      for (const id of ids) choose(byId.get(id), { code: "file-read", file: path });
      continue;
    }
    const fns = await view.functionsInFiles([path]);
    for (const [fn, edges] of await view.coverage(fns.map((f) => f.id))) for (const e of edges) choose(byId.get(e.test), { code: "covers-named-file", file: path, function: fn });
    for (const t of all) if (t.file === path) choose(t, { code: "test-in-named-file", file: path });
    for (const imp of await view.importers([path])) for (const t of all) if (t.file === imp) choose(t, { code: "imports-named-file", file: path });
  }
  const tests = [...chosen.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    level: "subset",
    runAll: false,
    trust: { score: 1, evidenceRatio: 1, freshness: 1, uncertainRatio: 0, thresholds: { ...thresholds } },
    base: "HEAD",
    mode: "worktree",
    changes: [],
    overrides: [],
    tests,
    estimate: estimate(tests, all),
    elapsedMs: Math.round(performance.now() - started),
  };
}
