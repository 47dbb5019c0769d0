import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { shellQuote, type RunnableTest, type Runner, type TestResult } from "./types.ts";

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

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

/** go test: one `go test -json -run '^(A|B)$' ./pkg…` over the selected packages. */
export const goTest: Runner = {
  framework: "go",
  detect: (root) => existsSync(join(root, "go.mod")),
  owns: (t) => t.framework === "go" || (t.framework === "" && t.file.endsWith("_test.go")),
  plan(root, tests) {
    if (tests === "all") return [{ framework: "go", argv: ["go", "test", "-json", "-count=1", "./..."], cwd: root, display: "go test ./..." }];
    const dirs = new Set<string>();
    const names = new Set<string>();
    let wholePackage = false;
    for (const t of tests) {
      const { dir, name } = splitGoSelector(t.selector.includes(":") ? t.selector : `${t.file.includes("/") ? t.file.slice(0, t.file.lastIndexOf("/")) : "."}:`);
      dirs.add(dir === "." ? "." : `./${dir}`);
      if (name) names.add(name);
      else wholePackage = true;
    }
    const pkgs = [...dirs].sort();
    const run = wholePackage ? [] : ["-run", `^(${[...names].sort().map(escapeRe).join("|")})$`];
    return [{ framework: "go", argv: ["go", "test", "-json", "-count=1", ...run, ...pkgs], cwd: root, display: `go test ${run.map(shellQuote).join(" ")} ${pkgs.join(" ")}`.replace(/\s+/g, " ").trim(), tests }];
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
    const dirs = [...new Set(failed.map((f) => (f.file === "." ? "." : `./${f.file}`)))];
    return `go test -run '^(${failed.slice(0, 5).map((f) => escapeRe(f.name)).join("|")})$' ${dirs.join(" ")}`;
  },
};

export type { RunnableTest };
