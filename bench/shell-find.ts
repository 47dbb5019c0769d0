#!/usr/bin/env bun
/**
 * `find . -name '*.o' -delete` at scale, whole process: classification alone (`guard shell check`), then
 * with the compensation (`--apply`: a hard link of every match in the trash), at 1,000, 10,000 and 30,000
 * matches (100 per folder). bench/shell.ts writes this table with the rest; run alone,
 *
 *   bun bench/shell-find.ts --binary <path> [--rounds 3]
 *
 * it replaces only the table in bench/results/shell.md, from `--rounds` runs per size (medians).
 * Wall time moves with the shared machine's load; the process's CPU time (user + system) is steadier.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";

const GIT_ENV = { GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@example.invalid", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@example.invalid", GIT_CONFIG_GLOBAL: "/dev/null" };
export const FIND_HEADING = "## `find . -name '*.o' -delete` at scale, whole process (target ≤ 1 s at 30,000 matches)";

export interface FindRow {
  n: number;
  checkMs: number;
  checkCpu: number;
  applyMs: number;
  applyCpu: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** One fresh repository per size and round; `check` first (it changes nothing), then `--apply`. */
export function measureFind(guard: string[], rounds = 1): FindRow[] {
  const rows: FindRow[] = [];
  for (const n of [1000, 10000, 30000]) {
    const runs: FindRow[] = [];
    for (let round = 0; round < rounds; round++) {
      const r = mkdtempSync(join(tmpdir(), "guard-bench-find-"));
      Bun.spawnSync(["git", "init", "-q", "-b", "main"], { cwd: r, env: { ...process.env, ...GIT_ENV } });
      for (let d = 0; d < n / 100; d++) {
        mkdirSync(join(r, "obj", `d${d}`), { recursive: true });
        for (let f = 0; f < 100; f++) writeFileSync(join(r, "obj", `d${d}`, `f${f}.o`), "o");
      }
      const timed = (argv: string[]) => {
        const t0 = performance.now();
        const p = Bun.spawnSync([...guard, ...argv], { cwd: r, env: { ...process.env, ...GIT_ENV }, stdout: "pipe", stderr: "pipe" });
        const ms = performance.now() - t0;
        if (p.exitCode !== 0) throw new Error(`${argv.join(" ")}: exit ${p.exitCode} ${p.stderr}`);
        const u = p.resourceUsage?.cpuTime;
        return { ms, cpu: u ? Number(u.user + u.system) / 1000 : NaN };
      };
      const check = timed(["shell", "check", "--", "find . -name '*.o' -delete"]);
      const apply = timed(["shell", "check", "--apply", "--", "find . -name '*.o' -delete"]);
      runs.push({ n, checkMs: check.ms, checkCpu: check.cpu, applyMs: apply.ms, applyCpu: apply.cpu });
      rmSync(r, { recursive: true, force: true });
    }
    const m = (k: keyof FindRow) => median(runs.map((x) => x[k]));
    rows.push({ n, checkMs: m("checkMs"), checkCpu: m("checkCpu"), applyMs: m("applyMs"), applyCpu: m("applyCpu") });
  }
  return rows;
}

export function findTable(rows: FindRow[], rounds = 1, load?: number): string {
  const how = rounds > 1 ? `Median of ${rounds} runs each` : "One run each";
  return `${FIND_HEADING}

${how}${load === undefined ? "" : ` (load average ${load.toFixed(1)} during them)`}; wall time and the process's CPU time (user + system, the steadier
figure on a shared machine). \`check\` classifies (runs the read-only find, resolves every match, plans the
saves); \`--apply\` also saves every match as a hard link in the trash.

| matches | check wall | check CPU | --apply wall | --apply CPU |
|---|---|---|---|---|
${rows.map((x) => `| ${x.n.toLocaleString("en-US")} | ${x.checkMs.toFixed(0)} ms | ${x.checkCpu.toFixed(0)} ms | ${x.applyMs.toFixed(0)} ms | ${x.applyCpu.toFixed(0)} ms |`).join("\n")}
`;
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const binary = args.includes("--binary") ? resolve(args[args.indexOf("--binary") + 1]!) : undefined;
  if (!binary) throw new Error("usage: bun bench/shell-find.ts --binary <path> [--rounds 3]");
  const rounds = Number(args[args.indexOf("--rounds") + 1] || 3) || 3;
  const rows = measureFind([binary], rounds);
  const table = findTable(rows, rounds, loadavg()[0]);
  const path = join(import.meta.dir, "results", "shell.md");
  const old = readFileSync(path, "utf8");
  const at = old.indexOf(FIND_HEADING);
  const next = old.indexOf("\n## ", at + FIND_HEADING.length);
  if (at < 0 || next < 0) throw new Error("bench/results/shell.md has no find table to replace: run bench/shell.ts");
  writeFileSync(path, `${old.slice(0, at)}${table}${old.slice(next)}`);
  process.stdout.write(table);
}
