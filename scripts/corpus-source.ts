import { writeFileSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";

/** A corpus generator's input: a git directory (and commit) of the fetched repository, read with git. */
export function corpusSource(script: string): { git: (...args: string[]) => string; commit: string } {
  const [gitDir, rev = "HEAD"] = process.argv.slice(2);
  if (!gitDir) {
    process.stderr.write(`usage: bun scripts/${script} <git dir> [commit]\n`);
    process.exit(64);
  }
  const git = (...args: string[]) => {
    const p = Bun.spawnSync(["git", "--git-dir", gitDir, ...args], { stdout: "pipe", stderr: "pipe" });
    if (p.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${p.stderr.toString().trim()}`);
    return p.stdout.toString();
  };
  return { git, commit: git("rev-parse", rev).trim() };
}

/** Write fixtures/<name>/cases.json (data only) and say what it holds. */
export function writeCases(name: string, source: Record<string, string>, cases: { expected: string }[], note = ""): void {
  const dir = resolve(import.meta.dir, "..", "fixtures", name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "cases.json"), `${JSON.stringify({ source, cases }, null, 1)}\n`);
  const count = (e: string) => cases.filter((c) => c.expected === e).length;
  process.stdout.write(`${cases.length} cases (${count("allow")} allow, ${count("deny")} deny${note}) → ${join("fixtures", name, "cases.json")}\n`);
}

export interface CorpusCase {
  file: string;
  name: string;
  command: string;
  expected: "allow" | "deny";
}

/** The cases collected so far; a command listed twice with the same expectation is kept once. */
export function caseList(): { cases: CorpusCase[]; add: (c: CorpusCase) => void } {
  const cases: CorpusCase[] = [];
  const seen = new Set<string>();
  return {
    cases,
    add: (c) => {
      const key = `${c.expected}\0${c.command}`;
      if (seen.has(key)) return;
      seen.add(key);
      cases.push(c);
    },
  };
}
