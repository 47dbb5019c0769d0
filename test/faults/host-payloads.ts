/**
 * Hook payloads of every host, taken from the captured-shape fixtures in fixtures/hosts/<host>/ and bent
 * into the fault a test needs (another folder, another command, another path), and a way to play them
 * through the compiled binary the way the host would.
 */
import { beforeAll } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUILD_TIMEOUT_MS, builtHostBinary } from "../release/build-once.ts";

const FIXTURES = join(import.meta.dir, "..", "..", "fixtures", "hosts");

/** A fixture with "$ROOT" as the folder; `swap` is a string in it a test may replace. */
interface Shape {
  host: string;
  event: string;
  file: string;
  swap?: string;
}

/** One shell tool call per host (the command in it is `swap`). */
export const SHELL_CALLS: Shape[] = [
  { host: "antigravity", event: "pre-tool-use", file: "pre-tool-use.allow.json", swap: "go test ./..." },
  { host: "claude-code", event: "pre-tool-use", file: "pre-tool-use.allow.json", swap: "ls -la src" },
  { host: "codex", event: "pre-tool-use", file: "pre-tool-use.allow.json", swap: "pytest -q" },
  { host: "copilot", event: "pre-tool-use", file: "pre-tool-use.allow.json", swap: "git status" },
  { host: "cursor", event: "before-shell-execution", file: "before-shell-execution.allow.json", swap: "npm test" },
  { host: "gemini", event: "before-tool", file: "before-tool.allow.json", swap: "cat README.md" },
  { host: "kiro", event: "pre-tool-use", file: "pre-tool-use.allow.json", swap: "cargo test" },
  { host: "opencode", event: "tool-execute-before", file: "tool-execute-before.allow.json", swap: "bun test" },
  { host: "windsurf", event: "pre-run-command", file: "pre-run-command.allow.json", swap: "make test" },
];

/** One file-writing tool call per host (the path written is `swap`). */
export const EDIT_CALLS: Shape[] = [
  { host: "antigravity", event: "pre-tool-use", file: "pre-tool-use.edit-guard-config.json", swap: "$ROOT/guard.json" },
  { host: "claude-code", event: "pre-tool-use", file: "pre-tool-use.edit-guard-state.json", swap: "$ROOT/.guard/stop-gate.json" },
  { host: "codex", event: "pre-tool-use", file: "pre-tool-use.apply-patch-guard.json", swap: ".guard/config.json" },
  { host: "copilot", event: "pre-tool-use", file: "pre-tool-use.edit-guard-state.json", swap: "$ROOT/.guard/events.jsonl" },
  { host: "cursor", event: "pre-tool-use", file: "pre-tool-use.json", swap: "$ROOT/guard.json" },
  { host: "gemini", event: "before-tool", file: "before-tool.edit-guard-state.json", swap: "$ROOT/.guard/created-files.json" },
  { host: "kiro", event: "pre-tool-use", file: "pre-tool-use.edit-guard-state.json", swap: "$ROOT/.guard/x.json" },
  { host: "opencode", event: "tool-execute-before", file: "tool-execute-before.edit-guard-state.json", swap: "$ROOT/.guard/stop-gate.json" },
  { host: "windsurf", event: "pre-write-code", file: "pre-write-code.json", swap: "$ROOT/.guard/config.json" },
];

/** The stop event of every host that has one (Windsurf has none). */
export const STOP_EVENTS: Shape[] = [
  { host: "antigravity", event: "stop", file: "stop.json" },
  { host: "claude-code", event: "stop", file: "stop.json" },
  { host: "claude-code", event: "subagent-stop", file: "subagent-stop.json" },
  { host: "codex", event: "stop", file: "stop.json" },
  { host: "copilot", event: "agent-stop", file: "agent-stop.json" },
  { host: "cursor", event: "stop", file: "stop.json" },
  { host: "gemini", event: "after-agent", file: "after-agent.json" },
  { host: "kiro", event: "stop", file: "stop.json" },
  { host: "opencode", event: "session-idle", file: "session-idle.json" },
];

/** The payload of `shape` with "$ROOT" set to `root` and its `swap` string replaced by `by`. */
export function payload(shape: Shape, root: string, by?: string): string {
  let raw = readFileSync(join(FIXTURES, shape.host, shape.file), "utf8");
  if (by !== undefined) {
    if (!shape.swap || !raw.includes(shape.swap)) throw new Error(`${shape.host}/${shape.file} does not contain ${shape.swap}`);
    raw = raw.replaceAll(shape.swap, by);
  }
  return raw.replaceAll("$ROOT", root);
}

export interface Answer {
  code: number;
  stdout: string;
  stderr: string;
}

/** `guard agent-event <host> <event>` as the host runs it: payload on stdin, started in `cwd`. */
export function playHook(bin: string, shape: Shape, stdin: string, cwd: string, env: Record<string, string> = {}): Answer {
  const p = Bun.spawnSync([bin, "agent-event", shape.host, shape.event], {
    cwd,
    env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", ...env },
    stdin: new TextEncoder().encode(stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: p.exitCode ?? -1, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
}

/** Whether the host reads this answer as "no": exit 2, or a deny/block/follow-up in the host's JSON. */
export function refuses(a: Answer): boolean {
  if (a.code === 2) return true;
  if (!a.stdout.trim()) return false;
  const o = JSON.parse(a.stdout) as Record<string, unknown>;
  return o.decision === "block" || o.decision === "deny" || o.permissionDecision === "deny" || o.permission === "deny" || typeof o.followup_message === "string";
}

/** All the text of an answer, for "does it say why". */
export const said = (a: Answer) => `${a.stdout}\n${a.stderr}`;

/** The compiled binary (built once per source state) and a private HOME, for a fault test file. */
export function useCompiledGuard(): { readonly bin: string; readonly home: string } {
  const env = { bin: "", home: "" };
  beforeAll(async () => {
    env.bin = await builtHostBinary();
    env.home = mkdtempSync(join(tmpdir(), "guard-faults-home-"));
  }, BUILD_TIMEOUT_MS);
  return env;
}
