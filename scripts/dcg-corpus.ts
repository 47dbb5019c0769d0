#!/usr/bin/env bun
/**
 * Generate fixtures/dcg-corpus/cases.json from destructive_command_guard's public regression corpus
 * (its tests/corpus/**\/*.toml: commands with an expected allow/deny). Only the cases are kept, as data.
 *
 *   bun scripts/dcg-corpus.ts <git dir of a destructive_command_guard clone> [commit]
 *
 * Hook-payload cases (input_kind other than "command") are left out; a command listed twice with the
 * same expectation is kept once.
 */
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const [gitDir, rev = "HEAD"] = process.argv.slice(2);
if (!gitDir) {
  process.stderr.write("usage: bun scripts/dcg-corpus.ts <git dir> [commit]\n");
  process.exit(64);
}
const git = (...args: string[]) => {
  const p = Bun.spawnSync(["git", "--git-dir", gitDir, ...args], { stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${p.stderr.toString().trim()}`);
  return p.stdout.toString();
};
const commit = git("rev-parse", rev).trim();
const files = git("ls-tree", "-r", "--name-only", commit, "tests/corpus").split("\n").filter((f) => f.endsWith(".toml"));

/** A TOML basic ("…", with escapes) or literal ('…') string at the start of `s`. */
function tomlString(s: string): string | undefined {
  if (s.startsWith("'")) {
    const end = s.indexOf("'", 1);
    return end < 0 ? undefined : s.slice(1, end);
  }
  if (!s.startsWith('"')) return undefined;
  let out = "";
  for (let i = 1; i < s.length; i++) {
    const c = s[i]!;
    if (c === '"') return out;
    if (c !== "\\") {
      out += c;
      continue;
    }
    const e = s[++i]!;
    const simple: Record<string, string> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", '"': '"', "\\": "\\" };
    if (e in simple) out += simple[e];
    else if (e === "u" || e === "U") {
      const len = e === "u" ? 4 : 8;
      out += String.fromCodePoint(parseInt(s.slice(i + 1, i + 1 + len), 16));
      i += len;
    } else throw new Error(`unknown escape \\${e}`);
  }
  return undefined;
}

interface Case {
  file: string;
  name: string;
  command: string;
  expected: "allow" | "deny";
}
const cases: Case[] = [];
const seen = new Set<string>();
for (const file of files) {
  const blocks = git("show", `${commit}:${file}`).split(/^\[\[case\]\]\s*$/m).slice(1);
  for (const block of blocks) {
    const fields: Record<string, string> = {};
    for (const line of block.split("\n")) {
      const m = /^([A-Za-z_]+)\s*=\s*(.*)$/.exec(line);
      if (!m) continue;
      const v = tomlString(m[2]!.trim());
      if (v !== undefined) fields[m[1]!] = v;
    }
    if (fields.input_kind && fields.input_kind !== "command") continue;
    const expected = fields.expected ?? fields.expected_decision;
    const command = fields.command;
    if (command === undefined || (expected !== "allow" && expected !== "deny")) continue;
    const key = `${expected}\0${command}`;
    if (seen.has(key)) continue;
    seen.add(key);
    cases.push({ file: file.replace(/^tests\/corpus\//, ""), name: fields.description ?? fields.id ?? "", command, expected });
  }
}
const out = resolve(import.meta.dir, "..", "fixtures", "dcg-corpus", "cases.json");
const data = { source: { repository: "Dicklesworthstone/destructive_command_guard", commit, path: "tests/corpus" }, cases };
writeFileSync(out, `${JSON.stringify(data, null, 1)}\n`);
process.stdout.write(`${cases.length} cases (${cases.filter((c) => c.expected === "allow").length} allow, ${cases.filter((c) => c.expected === "deny").length} deny) → ${join("fixtures", "dcg-corpus", "cases.json")}\n`);
