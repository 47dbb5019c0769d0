import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gitRaw } from "../../repo/git.ts";
import { offeredBy } from "./hygiene-names.ts";
import type { LoadedInvariant } from "./invariants.ts";
import { inScope, matchesAny } from "./scope.ts";
import type { ImpactRange } from "./types.ts";

const TEST_PATH = /(?:^|\/)(?:tests?|__tests__|spec)\/|(?:^|\/)test_[^/]+\.py$|_test\.(?:py|go)$|\.(?:test|spec)\.[cm]?[jt]sx?$/;
const LIMIT = { symbols: 200, files: 200, searched: 40 };

const cap = <T>(xs: T[], n: number) => xs.slice(0, n);

/** The impact range of a scope: symbols in it, files that reference them, tests among those, invariants over it. */
export async function impactRange(root: string, scope: string[], files: string[], invariants: LoadedInvariant[], mode: "always" | "never"): Promise<ImpactRange> {
  const scoped = scope.length === 0 ? [] : files.filter((f) => inScope(f, scope));
  const inv = invariants.filter((i) => scoped.some((f) => matchesAny(f, i.files)) || i.files.some((g) => scope.includes(g))).map((i) => i.id);
  if (scope.length === 0) return { source: "search", note: "no scope declared, so no impact range", symbols: [], referencingFiles: [], tests: [], invariants: invariants.map((i) => i.id) };
  let note: string | undefined;
  if (mode === "always") {
    try {
      return { ...(await fromGraph(root, scoped)), invariants: inv };
    } catch (e) {
      note = `code graph unavailable (${e instanceof Error ? e.message.split("\n")[0] : e}); impact from a repository search`;
    }
  } else note = "code graph off (gate.graph = never); impact from a repository search";
  return { ...fromSearch(root, scoped), invariants: inv, note };
}

async function fromGraph(root: string, scoped: string[]): Promise<Omit<ImpactRange, "invariants">> {
  const { openGraph } = await import("../../graph/open.ts");
  const { indexRepository } = await import("../../graph/indexer.ts");
  const { importersOf, callers } = await import("../../graph/queries.ts");
  const graph = await openGraph(root);
  try {
    await indexRepository(root, graph);
    const fns = await graph.roQuery("MATCH (f:Function) WHERE f.file IN $files AND f.qualname <> '<module>' RETURN f.id AS id, f.qualname AS q, f.file AS file ORDER BY f.file, f.start", { files: scoped });
    const symbols = fns.rows.map((r) => `${r.file}::${r.q}`);
    const refs = new Set<string>();
    for (const f of scoped) for (const p of await importersOf(graph, f, false)) refs.add(p);
    const byId = new Map<string, string>();
    for (const r of cap(fns.rows, LIMIT.symbols)) for (const c of await callers(graph, String(r.id), 1)) byId.set(c.id, c.id);
    if (byId.size > 0) {
      const files = await graph.roQuery("UNWIND $ids AS x MATCH (f:Function {id: x}) RETURN DISTINCT f.file AS file", { ids: [...byId.keys()] });
      for (const r of files.rows) refs.add(String(r.file));
    }
    for (const f of scoped) refs.delete(f);
    const around = [...new Set([...scoped, ...refs])];
    const tests = await graph.roQuery("MATCH (t:Test) WHERE t.file IN $files RETURN t.id AS id ORDER BY t.id", { files: around });
    return { source: "graph", symbols: cap(symbols, LIMIT.symbols), referencingFiles: cap([...refs].sort(), LIMIT.files), tests: cap(tests.rows.map((r) => String(r.id)), LIMIT.files) };
  } finally {
    await graph.close();
  }
}

function fromSearch(root: string, scoped: string[]): Omit<ImpactRange, "invariants"> {
  const symbols: string[] = [];
  const names = new Set<string>();
  for (const f of scoped) {
    let text: string;
    try {
      text = readFileSync(join(root, f), "utf8");
    } catch {
      continue;
    }
    for (const o of offeredBy(f, text)) if (o.kind === "export") (symbols.push(`${f}::${o.name}`), names.add(o.name));
  }
  const refs = new Set<string>();
  const searched = cap([...names].filter((n) => n.length >= 3), LIMIT.searched);
  if (searched.length > 0) {
    const r = gitRaw(["grep", "-l", "-I", "-F", "-w", ...searched.flatMap((n) => ["-e", n]), "--", "."], root);
    for (const p of r.stdout.split("\n")) if (p && !scoped.includes(p)) refs.add(p);
  }
  const tests = [...new Set([...scoped, ...refs])].filter((p) => TEST_PATH.test(p)).sort();
  return { source: "search", symbols: cap(symbols, LIMIT.symbols), referencingFiles: cap([...refs].sort(), LIMIT.files), tests };
}
