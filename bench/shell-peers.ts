#!/usr/bin/env bun
/**
 * guard side by side with other command guards on the public corpora (fixtures/dcg-corpus,
 * fixtures/safety-net-corpus): each case through guard's classifier and through each peer's Claude Code
 * PreToolUse hook (the payload on stdin, in the same workspace), counted as exact / let through (the
 * corpus says deny, the tool allows) / over-blocked (the corpus says allow, the tool denies or asks).
 * For guard, RELOCATE and SNAPSHOT let the command run after saving what it would lose: they count as
 * allowing an allow case and as catching a deny case.
 *
 *   bun bench/shell-peers.ts --peer "dcg=env DCG_HOOK_TIMEOUT_MS=10000 <path>/dcg" --peer "cc-safety-net=node <cache>/…/cc-safety-net.js hook --claude-code"
 *
 * dcg's hook fails open when its evaluation passes a 200 ms budget, which a loaded machine reaches: give
 * it a larger DCG_HOOK_TIMEOUT_MS to count what it decides rather than how fast. Install or build peers
 * outside the repository. Replaces the "Peers on the public corpora" section of
 * bench/results/shell.md (bench/shell.ts keeps it when it rewrites the file).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { classifyCommand } from "../src/decide/shell/index.ts";
import { buildShellFixture } from "../test/shell/fixture.ts";

const ROOT = resolve(import.meta.dir, "..");
const RESULTS = join(ROOT, "bench", "results", "shell.md");
export const PEERS_HEADING = "## Peers on the public corpora";
const args = process.argv.slice(2);
const peers = args.flatMap((a, i) => (a === "--peer" ? [args[i + 1]!] : [])).map((spec) => {
  const eq = spec.indexOf("=");
  return { name: spec.slice(0, eq), argv: spec.slice(eq + 1).split(" ").filter(Boolean) };
});

interface Case {
  command: string;
  expected: "allow" | "deny";
}
const corpora = [
  { name: "dcg-corpus", title: "destructive_command_guard's corpus (fixtures/dcg-corpus)" },
  { name: "safety-net-corpus", title: "cc-safety-net's analyzer tests (fixtures/safety-net-corpus)" },
].map((c) => ({ ...c, cases: (JSON.parse(readFileSync(join(ROOT, "fixtures", c.name, "cases.json"), "utf8")) as { cases: Case[] }).cases }));

// The corpus tests' workspace: a repository outside temp space with build/ present, GUARD_HOME beside it.
const workDir = join(ROOT, "bench", ".work");
mkdirSync(workDir, { recursive: true });
const fx = buildShellFixture(workDir);
mkdirSync(join(fx.ws, "build"));
writeFileSync(join(fx.ws, "build", "out.o"), "o");
const scratch = mkdtempSync(join(tmpdir(), "guard-peers-tmp-"));
process.env.GUARD_HOME = join(fx.base, "guard-home");
const env = { HOME: fx.home, TMPDIR: scratch };

/** What a tool did with a case: let it run, stop it, or (guard's RELOCATE/SNAPSHOT) let it run after saving what it loses. */
type Verdict = "allow" | "deny" | "compensate";
async function guardSays(command: string): Promise<Verdict> {
  const v = await classifyCommand(command, { cwd: fx.ws, env });
  return v.decision === "ASK" || v.decision === "BLOCK" ? "deny" : v.decision === "ALLOW" ? "allow" : "compensate";
}
function peerSays(argv: string[], command: string): Verdict {
  const payload = JSON.stringify({ session_id: "bench", cwd: fx.ws, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } });
  const p = Bun.spawnSync(argv, { cwd: fx.ws, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env }, stdin: new TextEncoder().encode(payload), stdout: "pipe", stderr: "pipe", timeout: 30_000 });
  const out = p.stdout.toString();
  return p.exitCode === 2 || /"permissionDecision"\s*:\s*"(deny|ask)"/.test(out) ? "deny" : "allow";
}
for (const p of peers) if (peerSays(p.argv, "rm -rf /") !== "deny") throw new Error(`peer ${p.name} did not deny rm -rf /`);

const tools = [{ name: "guard", says: guardSays }, ...peers.map((p) => ({ name: p.name, says: async (c: string) => peerSays(p.argv, c) }))];
const sections: string[] = [];
for (const corpus of corpora) {
  const rows: string[] = [];
  for (const tool of tools) {
    let exact = 0;
    let through = 0;
    let over = 0;
    for (const c of corpus.cases) {
      const said = await tool.says(c.command);
      if (said === c.expected || said === "compensate") exact++;
      else if (c.expected === "deny") through++;
      else over++;
    }
    rows.push(`| ${tool.name} | ${exact} | ${through} | ${over} |`);
  }
  const allow = corpus.cases.filter((c) => c.expected === "allow").length;
  sections.push(`### ${corpus.title}: ${corpus.cases.length} cases (${allow} allow, ${corpus.cases.length - allow} deny)

| tool | exact | let through | over-blocked |
|---|---|---|---|
${rows.join("\n")}`);
}
rmSync(fx.base, { recursive: true, force: true });
rmSync(scratch, { recursive: true, force: true });

const section = `${PEERS_HEADING}

Machine: ${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}. Date: ${new Date().toISOString().slice(0, 10)}. Load average at the end:
${loadavg().map((l) => l.toFixed(1)).join(" / ")}. Produced by \`bun bench/shell-peers.ts ${peers.map((p) => `--peer "${p.name}=${p.argv.filter((w) => !w.includes("/")).join(" ")} …"`).join(" ")}\`: guard's classifier in
the corpus tests' workspace (a repository outside temp space), each peer's Claude Code PreToolUse hook on
the same commands in the same workspace (${peers.map((p) => p.name).join(", ")}; built or installed outside the repository). For guard, RELOCATE
and SNAPSHOT let the command run after saving what it would lose: exact for an allow case, caught for a
deny case. The cases guard disputes, with the reasons, are in each corpus's disputes.json.

${sections.join("\n\n")}
`;
const old = readFileSync(RESULTS, "utf8");
const at = old.indexOf(PEERS_HEADING);
const next = at < 0 ? -1 : old.indexOf("\n## ", at + PEERS_HEADING.length);
const updated = at < 0 ? `${old.trimEnd()}\n\n${section}` : `${old.slice(0, at)}${section}${next < 0 ? "" : old.slice(next)}`;
writeFileSync(RESULTS, updated);
process.stdout.write(section);
