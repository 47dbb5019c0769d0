import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/**
 * Dependencies point one way along the data flow: repo → code → graph → decide → act / report → hosts /
 * mcp → cli. A module may import its own layer and any layer before it, plus the shared kernel below.
 */
const SRC = resolve(import.meta.dir, "..", "src");
const LAYERS = ["repo", "code", "graph", "decide", "act", "report", "hosts", "mcp", "cli"];
const RANK: Record<string, number> = { repo: 0, code: 1, graph: 2, decide: 3, act: 4, report: 4, hosts: 5, mcp: 5, cli: 6 };
/**
 * Vocabulary every layer speaks: the ground floor (kernel/: errors, exit codes, decisions, the JSON envelope),
 * state paths, the audit log and config (state/), and the graph schema (node ids and labels that extractors
 * produce and the graph stores).
 */
const KERNEL = ["kernel/", "state/", "graph/schema.ts"];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : /\.(ts|tsx)$/.test(name) ? [p] : [];
  });
}

const layerOf = (rel: string) => rel.split("/")[0] ?? "";

describe("architecture", () => {
  test("every import points along the data flow", () => {
    const violations: string[] = [];
    for (const file of files(SRC)) {
      const rel = relative(SRC, file);
      const from = layerOf(rel);
      if (!LAYERS.includes(from)) continue;
      const source = readFileSync(file, "utf8");
      // Type-only imports describe shared shapes and vanish at run time; they may cross layers.
      const runtime = source.replace(/^import type [^;]+;$/gm, "").replace(/^export type [^;]+;$/gm, "");
      for (const m of runtime.matchAll(/(?:from|import)\s*\(?\s*["'](\.[^"']+)["']/g)) {
        const target = relative(SRC, resolve(dirname(file), m[1]!));
        if (target.startsWith("..")) continue;
        if (KERNEL.some((k) => target === k || (k.endsWith("/") && target.startsWith(k)))) continue;
        const to = layerOf(target);
        if (!(to in RANK) || !(from in RANK)) continue;
        if (RANK[to]! > RANK[from]!) violations.push(`${rel} imports ${target}`);
      }
    }
    expect(violations).toEqual([]);
  });

  test("the ground floor imports nothing above it", () => {
    const violations: string[] = [];
    for (const file of files(join(SRC, "kernel"))) {
      const runtime = readFileSync(file, "utf8").replace(/^import type [^;]+;$/gm, "");
      for (const m of runtime.matchAll(/(?:from|import)\s*\(?\s*["'](\.[^"']+)["']/g)) {
        const target = relative(SRC, resolve(dirname(file), m[1]!));
        if (!target.startsWith("kernel/")) violations.push(`${relative(SRC, file)} imports ${target}`);
      }
    }
    expect(violations).toEqual([]);
  });
});
