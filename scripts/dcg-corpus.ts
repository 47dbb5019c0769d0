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
import { caseList, corpusSource, writeCases } from "./corpus-source.ts";

const { git, commit } = corpusSource("dcg-corpus.ts");
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

const { cases, add } = caseList();
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
    add({ file: file.replace(/^tests\/corpus\//, ""), name: fields.description ?? fields.id ?? "", command, expected });
  }
}
writeCases("dcg-corpus", { repository: "Dicklesworthstone/destructive_command_guard", commit, path: "tests/corpus" }, cases);
