/**
 * `guard why verify --scope staged` on a generated repository with ≥ 2,000 commits (built with
 * `git fast-import`, fixed author and dates), for a typical change: the agent removes the idempotency
 * guard a decision protects and its regression test, plus an unrelated edit in another file. Target: ≤ 1 s.
 *
 *   bun bench/why.ts [--runs 7] [--commits 2400]        (uses dist/guard when it exists, else bun src/cli/main.ts)
 *
 * Cases: no engine (the hook path: the graph is used only when already running), and an engine running
 * with the cache warm (the first run filled it). Writes bench/results/why.md.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, hostname, release as osRelease, tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..");
const args = process.argv.slice(2);
const opt = (name: string, def: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const RUNS = opt("--runs", 7);
const COMMITS = opt("--commits", 2400);
const BIN = join(ROOT, "dist", "guard");
const GUARD = existsSync(BIN) ? [BIN] : [process.execPath, join(ROOT, "src", "cli", "main.ts")];
const MODULES = 120;

const DECISION = `id: pay-001
version: 1
status: active
scope: {files: [src/payments/charge.ts], symbols: [charge]}
reason: A retried checkout charged customers twice (#650).
must_preserve: [condition_removed]
evidence: ["#650"]
required_tests: ["test/charge.test.ts::charges once per key"]
owners: [payments]
`;

function chargeFile(guard: boolean, extra: number): string {
  const fns = Array.from({ length: extra }, (_, k) => `export function helper${k}(x: number) {\n  if (x < ${k}) return ${k};\n  return x * ${k + 1};\n}\n`).join("\n");
  return `export async function charge(order: { amount: number }, key: string) {\n  if (order.amount <= 0) throw new RangeError("amount");\n${guard ? "  if (receipts.has(key)) return receipts.get(key);\n" : ""}  const r = await gateway.charge(order.amount, { timeoutMs: 5000 });\n  receipts.set(key, r);\n  return r;\n}\n\n${fns}`;
}

function moduleFile(i: number, fns: number): string {
  const body = Array.from({ length: fns }, (_, k) => `export function op${i}_${k}(a: number, b: number) {\n  if (a > b) return a - b;\n  validate${k % 3}(a);\n  return retry(() => call${i}(a, b), { retries: ${(k % 4) + 1} });\n}\n`).join("\n");
  return `// module ${i}\nexport const TIMEOUT_MS = ${1000 + i};\n\n${body}`;
}

/** A fast-import stream: COMMITS commits, one file changed per commit, the guard added at 40% of history. */
function stream(): string {
  const out: string[] = [];
  const fns = new Array<number>(MODULES).fill(0);
  let chargeExtra = 0;
  let guard = false;
  const t0 = Date.UTC(2024, 0, 1) / 1000;
  const data = (s: string) => `data ${Buffer.byteLength(s)}\n${s}\n`;
  for (let c = 1; c <= COMMITS; c++) {
    const files: [string, string][] = [];
    let msg: string;
    if (c === 1) {
      files.push(["src/payments/charge.ts", chargeFile(false, 0)], ["test/charge.test.ts", `it("charges", () => { expect(charge(o, "k")).toBeDefined(); });\n`]);
      msg = "Add payments";
    } else if (c === Math.floor(COMMITS * 0.4)) {
      guard = true;
      files.push(
        ["src/payments/charge.ts", chargeFile(true, chargeExtra)],
        ["test/charge.test.ts", `it("charges", () => { expect(charge(o, "k")).toBeDefined(); });\nit("charges once per key", async () => {\n  await charge(o, "k"); await charge(o, "k");\n  expect(gateway.calls).toBe(1);\n});\n`],
      );
      msg = `Charge once per idempotency key (#${c})\n\nFixes #650`;
    } else if (c === Math.floor(COMMITS * 0.4) + 3) {
      files.push([".guard-decisions/pay-001.yaml", DECISION]);
      msg = "Record pay-001";
    } else if (c % 50 === 0) {
      chargeExtra++;
      files.push(["src/payments/charge.ts", chargeFile(guard, chargeExtra)]);
      msg = `Add payment helper ${chargeExtra}`;
    } else {
      const i = c % MODULES;
      fns[i]!++;
      files.push([`src/mod${i}/service${i}.ts`, moduleFile(i, fns[i]!)]);
      msg = `mod${i}: add op ${fns[i]} (refs #${1000 + c})`;
    }
    const when = `${t0 + c * 3600} +0000`;
    out.push(`commit refs/heads/main\nmark :${c}\nauthor Bench <bench@example.invalid> ${when}\ncommitter Bench <bench@example.invalid> ${when}\n${data(msg)}`);
    if (c > 1) out.push(`from :${c - 1}\n`);
    for (const [p, content] of files) out.push(`M 100644 inline ${p}\n${data(content)}`);
    out.push("\n");
  }
  return out.join("");
}

function sh(cmd: string[], cwd: string, input?: string, env: Record<string, string> = {}) {
  const p = Bun.spawnSync(cmd, { cwd, stdin: input === undefined ? "ignore" : new TextEncoder().encode(input), stdout: "pipe", stderr: "pipe", env: { ...process.env, ...env } });
  if (p.exitCode !== 0 && p.exitCode !== 2) throw new Error(`${cmd.join(" ")}: ${p.stderr.toString()}`);
  return { code: p.exitCode, stdout: p.stdout.toString() };
}

const dir = mkdtempSync(join(tmpdir(), "guard-bench-why-"));
const home = mkdtempSync(join(tmpdir(), "guard-bench-why-home-"));
const envHome = { GUARD_HOME: home };
let t = performance.now();
sh(["git", "init", "-q", "-b", "main"], dir);
sh(["git", "fast-import", "--quiet"], dir, stream());
sh(["git", "checkout", "-q", "main"], dir);
const buildMs = performance.now() - t;
const commits = Number(sh(["git", "rev-list", "--count", "HEAD"], dir).stdout.trim());

// The typical change: the guard goes with the regression test that would catch it, and an unrelated
// module gets a cosmetic edit.
const charge = join(dir, "src/payments/charge.ts");
writeFileSync(charge, readFileSync(charge, "utf8").replace("  if (receipts.has(key)) return receipts.get(key);\n", ""));
const testFile = join(dir, "test/charge.test.ts");
writeFileSync(testFile, readFileSync(testFile, "utf8").replace(/it\("charges once per key"[\s\S]*$/, ""));
const other = join(dir, "src/mod7/service7.ts");
writeFileSync(other, readFileSync(other, "utf8").replace("// module 7", "// module 7: services"));
sh(["git", "add", "-A"], dir);

function time(env: Record<string, string>): { ms: number[]; code: number | null } {
  const ms: number[] = [];
  let code: number | null = null;
  for (let i = 0; i < RUNS + 1; i++) {
    const s = performance.now();
    code = sh([...GUARD, "why", "verify", "--scope", "staged"], dir, undefined, env).code;
    if (i > 0) ms.push(performance.now() - s);
  }
  return { ms: ms.sort((a, b) => a - b), code };
}
const median = (xs: number[]) => (xs.length % 2 ? xs[(xs.length - 1) / 2]! : (xs[xs.length / 2 - 1]! + xs[xs.length / 2]!) / 2);

const cold = time({ ...envHome, GUARD_WHY_GRAPH: "0" });
// With the engine running: the first (warm-up) run fills the cache, the timed runs read it.
const { ensureEmbedded, stopEmbedded } = await import("../src/graph/engine/embedded.ts");
let warm: { ms: number[]; code: number | null } | undefined;
let engineNote = "";
try {
  process.env.GUARD_HOME = home;
  await ensureEmbedded({ home, idleTimeoutSeconds: 300 });
  warm = time(envHome);
} catch (e) {
  engineNote = `engine case skipped: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}`;
} finally {
  await stopEmbedded(home).catch(() => false);
}

const cpu = cpus()[0]?.model ?? "unknown cpu";
const row = (name: string, r: { ms: number[]; code: number | null }) =>
  `| ${name} | ${median(r.ms).toFixed(0)} | ${r.ms[0]!.toFixed(0)} | ${r.ms.at(-1)!.toFixed(0)} | ${r.ms.length} | ${r.code} |`;
const md = `# why: \`guard why verify --scope staged\` on a large history

Machine: ${hostname()}, ${cpu}, ${cpus().length} cores (shared), Linux ${osRelease()}; Bun ${Bun.version}.
Date: ${new Date().toISOString().slice(0, 10)}. Command: \`bun bench/why.ts --runs ${RUNS} --commits ${COMMITS}\` (runs \`${existsSync(BIN) ? "dist/guard" : "bun src/cli/main.ts"}\`).

Repository: ${commits} commits built with \`git fast-import\` in ${(buildMs / 1000).toFixed(1)} s, ${MODULES + 2} files; the
idempotency guard in \`src/payments/charge.ts\` was added at commit ${Math.floor(COMMITS * 0.4)} ("Fixes #650"), a decision
protects it, and the file was touched ${Math.floor(COMMITS / 50)} more times after. The change: the guard and its required
regression test removed, an unrelated comment edited elsewhere, staged. Whole-process wall time, after one warm-up run.

| case | median ms | min ms | max ms | runs | exit |
|---|---|---|---|---|---|
${row("no engine (hook path; history searched with `git log -S`)", cold)}
${warm ? row("engine running, cache warm (introductions read from the graph)", warm) : `| engine running | – | – | – | – | ${engineNote} |`}

Target: ≤ 1000 ms for a typical change. Exit 2 = blocked, as expected for this change.
`;
mkdirSync(join(ROOT, "bench", "results"), { recursive: true });
writeFileSync(join(ROOT, "bench", "results", "why.md"), md);
console.log(md);
