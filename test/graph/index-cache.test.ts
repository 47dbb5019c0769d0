import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { extractSource } from "../../src/code/extract/index.ts";
import type { FileExtract } from "../../src/code/extract/types.ts";
import { STATE_VERSION, readIndexCache, writeIndexState, type IndexCache, type IndexState } from "../../src/graph/index-state.ts";
import { sh } from "../helpers/repo.ts";

const SOURCES: Record<string, string> = {
  "a.py": "import b\n\ndef run():\n    return b.helper() + cache.lookup()\n",
  "b.py": "def helper():\n    return lookup_table()\n",
  "c.ts": 'import { x } from "./d";\nexport function go() { return x() + api.fetchAll("é\\"q"); }\n',
  "d.ts": "export const x = () => 1;\n",
};

async function cacheOf(token: string): Promise<IndexCache> {
  const extracts: Record<string, FileExtract> = {};
  for (const [p, s] of Object.entries(SOURCES)) extracts[p] = await extractSource(p, p.endsWith(".py") ? "python" : "typescript", s);
  const contributions = Object.fromEntries(Object.keys(SOURCES).map((p) => [p, { labels: { File: 1 }, edges: {}, imports: [] }]));
  return { token, extracts, contributions };
}

function stateFor(cacheId: string): IndexState {
  return { version: STATE_VERSION, graph: "g", token: "t", indexedAt: 0, head: null, configHash: "", cacheId, files: {}, summary: { labels: {}, edgesByType: {}, edges: 0, lines: 0, failures: [] } };
}

function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), "guard-cache-"));
  sh(["git", "init", "-q"], dir);
  return dir;
}

describe("index cache", () => {
  test("a written cache reads back with every file's calls, unpacked on access", async () => {
    const root = repo();
    const c = await cacheOf("one");
    writeIndexState(root, stateFor("one"), c);
    const back = readIndexCache(root, "one")!;
    expect(JSON.parse(JSON.stringify(back.extracts))).toEqual(JSON.parse(JSON.stringify(c.extracts)));
    expect(back.extracts["a.py"]!.calls.map((x) => x.name)).toEqual(["helper", "lookup"]);
    // Call sites sit after the first line, one packed array per file.
    const [header, blob] = readFileSync(join(root, ".guard/index/cache.json"), "utf8").split("\n");
    expect(header).not.toContain("lookup_table");
    expect(blob).toContain("lookup_table");
  });

  test("callsMentioning finds call names and objects' last parts, and only those files", async () => {
    const root = repo();
    writeIndexState(root, stateFor("one"), await cacheOf("one"));
    const back = readIndexCache(root, "one")!;
    const m = (...names: string[]) => [...back.callsMentioning!(new Set(names)).maybe].sort();
    expect(m("lookup_table")).toEqual(["b.py"]);
    // A superset: b.py's call is made from its own helper (the caller's qualname is stored too).
    expect(m("helper")).toEqual(["a.py", "b.py"]);
    expect(m("b")).toEqual(["a.py"]); // b.helper(): the object
    expect(m("cache", "x")).toEqual(["a.py", "c.ts"]);
    expect(m("fetchAll")).toEqual(["c.ts"]);
    expect(m("nowhere", "lookup_tab", "table")).toEqual([]);
    // Every call's name and object is found in its own file: the filter never drops a real match.
    for (const [p, x] of Object.entries(back.extracts))
      for (const call of x.calls) {
        expect(m(call.name)).toContain(p);
        if (call.object) expect(m(call.object.slice(call.object.lastIndexOf(".") + 1))).toContain(p);
      }
  });

  test("files replaced by the journal are not covered by the filter", async () => {
    const root = repo();
    const first = await cacheOf("one");
    writeIndexState(root, stateFor("one"), first);
    const read = readIndexCache(root, "one")!;
    const second = await cacheOf("two");
    second.extracts["b.py"] = await extractSource("b.py", "python", "def helper():\n    return other_table()\n");
    writeIndexState(root, stateFor("two"), second, { previous: read, paths: ["b.py"] });
    const back = readIndexCache(root, "two")!;
    expect(back.extracts["b.py"]!.calls.map((x) => x.name)).toEqual(["other_table"]);
    const r = back.callsMentioning!(new Set(["other_table"]));
    expect(r.known.has("b.py")).toBe(false);
    expect(r.known.has("a.py")).toBe(true);
    expect([...r.maybe]).toEqual([]);
  });
});
