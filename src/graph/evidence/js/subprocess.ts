import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Evidence } from "../types.ts";
import { rel, type ScriptSource, type WindowRecord } from "./windows.ts";

/** One file node writes into NODE_V8_COVERAGE when a process exits. */
interface NodeCoverageFile {
  result?: { scriptId: string; url: string; functions: { ranges: { startOffset: number; endOffset: number; count: number }[] }[] }[];
}

/**
 * The coverage of the node processes tests started (v8-hook.mjs gives each test a NODE_V8_COVERAGE
 * folder of its own, named on the test's `started` line), as windows owned by those tests: a test that
 * runs the project's CLI in a child process ran that code too. A script is kept when its file, read now,
 * is the text V8 ran (its top-level range has the file's length). A test whose process ran a file of the
 * project's in some other text (a require hook that transpiles, as @babel/register or ts-node do), or left a
 * coverage file that cannot be read, is `unmapped`: what it ran there is unknown. A process that died by a
 * signal writes no coverage at all, which nothing here can see.
 */
export function subprocessWindows(out: string, records: readonly WindowRecord[], root: string): { records: WindowRecord[]; sources: Map<string, ScriptSource>; unmapped: { id: string; file: string }[] } {
  // The files the hook measures in the test processes (v8-hook.mjs's `wanted`).
  const wanted = (path: string) => path.startsWith(`${root}/`) && !path.includes("/node_modules/") && !path.startsWith(`${root}/.guard/`);
  const owners = new Map<string, { id: string; file: string }>();
  for (const r of records) if ("started" in r && r.started.sub) owners.set(r.started.sub, { id: r.started.id, file: r.started.file });
  const windows: WindowRecord[] = [];
  const unmapped = new Map<string, { id: string; file: string }>();
  const sources = new Map<string, ScriptSource>();
  const texts = new Map<string, string | undefined>();
  const textOf = (path: string) => {
    if (!texts.has(path)) {
      let text: string | undefined;
      try {
        text = readFileSync(path, "utf8");
      } catch {}
      texts.set(path, text);
    }
    return texts.get(path);
  };
  // Each process's scripts under a key of its own (a negative pid never collides with a real one).
  let key = 0;
  for (const [dir, owner] of owners) {
    const folder = join(out, dir);
    if (!existsSync(folder)) continue;
    for (const name of readdirSync(folder)) {
      if (!name.endsWith(".json")) continue;
      let cov: NodeCoverageFile;
      try {
        cov = JSON.parse(readFileSync(join(folder, name), "utf8")) as NodeCoverageFile;
      } catch {
        unmapped.set(dir, owner);
        continue;
      }
      const pid = --key;
      const scripts: { scriptId: string; functions: [number, number, number][][] }[] = [];
      for (const sc of cov.result ?? []) {
        const path = sc.url.startsWith("file://") ? decodeURIComponent(sc.url.slice(7)) : "";
        if (!path || !wanted(path) || !sc.functions.some((f) => (f.ranges[0]?.count ?? 0) > 0)) continue;
        const text = textOf(path);
        const top = sc.functions[0]?.ranges[0];
        if (text === undefined || top?.startOffset !== 0 || top.endOffset !== text.length) {
          unmapped.set(dir, owner);
          continue;
        }
        sources.set(`${pid}:${sc.scriptId}`, { path, source: text });
        scripts.push({ scriptId: sc.scriptId, functions: sc.functions.map((f) => f.ranges.map((r) => [r.startOffset, r.endOffset, r.count])) });
      }
      if (scripts.length > 0) windows.push({ pid, owner, scripts });
    }
  }
  return { records: windows, sources, unmapped: [...unmapped.values()] };
}

/**
 * The files of tests whose node processes ran code guard could not map are left without evidence: their
 * tests run on every change, rather than being taken for tests that ran only what the test process shows.
 */
export function unmappedTests(ev: Evidence, root: string, runner: string, unmapped: readonly { id: string; file: string }[]): void {
  const files = [...new Set(unmapped.map((t) => rel(root, t.file)))].sort();
  ev.uncollected = [...new Set([...(ev.uncollected ?? []), ...files])].sort();
  const named = unmapped.slice(0, 3).map((t) => `${rel(root, t.file)}::${t.id}`).join(", ");
  ev.notes.push(`${runner}: ${unmapped.length} test(s) started node processes that ran the project's code in a text guard cannot map back to its files (a transpiling require hook?) or left coverage it cannot read: ${named}; the tests of ${files.join(", ")} have no evidence and run on every change`);
}
