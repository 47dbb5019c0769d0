/**
 * Per-line, per-test evidence for a Go module, for the benchmark's `line-coverage` strategy (the same
 * LinesFile as the pytest measure in line-coverage.ts). Each package's test binary is built once with
 * `-cover -covermode=set -coverpkg=./...` (as guard builds it); each top-level test (`-test.list`) then runs alone with its own cover profile,
 * whose blocks that ran give the lines. Every block of the profiles, run or not, counts as a statement
 * line. Code that runs before any test (package variables, init) is in every test's profile, as it is in
 * guard's own recording.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { parseCoverBlocks } from "../../src/graph/evidence/go/profile.ts";
import type { LinesFile } from "./line-coverage.ts";

function sh(cmd: string[], cwd: string): string {
  const p = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`${cmd.join(" ")} exited ${p.exitCode}: ${p.stderr.toString().slice(-400)}`);
  return p.stdout.toString();
}

/** `go test -list` names → the _test.go file (repository-relative) that declares each. */
function declaringFiles(root: string, dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of readdirSync(dir).filter((n) => n.endsWith("_test.go")))
    for (const m of readFileSync(join(dir, f), "utf8").matchAll(/^func ((?:Test|Fuzz)\w*)\(/gm)) out.set(m[1]!, relative(root, join(dir, f)));
  return out;
}

export function measureGo(root: string): LinesFile {
  const module = /^module\s+(\S+)/m.exec(readFileSync(join(root, "go.mod"), "utf8"))?.[1];
  if (!module) throw new Error(`no module line in ${join(root, "go.mod")}`);
  const fileOf = (profileFile: string) => (profileFile.startsWith(`${module}/`) ? profileFile.slice(module.length + 1) : profileFile);
  const tmp = mkdtempSync(join(tmpdir(), "guard-bench-go-lines-"));
  const lines: LinesFile["lines"] = {};
  const statements: Record<string, Set<number>> = {};
  try {
    const packages = sh(["go", "list", "-f", "{{if or .TestGoFiles .XTestGoFiles}}{{.Dir}} {{.ImportPath}}{{end}}", "./..."], root).split("\n").filter(Boolean);
    for (const [i, entry] of packages.entries()) {
      const [dir, importPath] = entry.split(" ") as [string, string];
      const bin = join(tmp, `pkg${i}.test`);
      sh(["go", "test", "-c", "-cover", "-covermode=set", "-coverpkg=./...", "-o", bin, importPath], root);
      const files = declaringFiles(root, dir);
      const names = sh([bin, "-test.list", "."], dir).split("\n").filter((n) => files.has(n));
      for (const name of names) {
        const profile = join(tmp, "profile.out");
        rmSync(profile, { force: true });
        Bun.spawnSync([bin, `-test.run=^${name}$`, "-test.count=1", `-test.coverprofile=${profile}`], { cwd: dir, stdout: "ignore", stderr: "ignore" });
        let text = "";
        try {
          text = readFileSync(profile, "utf8");
        } catch {
          continue;
        }
        const id = `${files.get(name)}::${name}`;
        for (const b of parseCoverBlocks(text)) {
          const file = fileOf(b.file);
          const stmts = (statements[file] ??= new Set());
          const byLine = (lines[file] ??= {});
          for (let l = b.startLine; l <= b.endLine; l++) {
            stmts.add(l);
            if (b.count > 0) (byLine[l] ??= []).includes(id) || byLine[l]!.push(id);
          }
        }
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return { lines, importTime: {}, statements: Object.fromEntries(Object.entries(statements).map(([f, s]) => [f, [...s].sort((a, b) => a - b)])) };
}
