import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { forgetOwnFile, recordOwnWrite } from "../../state/own-files.ts";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { gitRaw, type GitResult } from "../../repo/git.ts";
import { homedir } from "node:os";
import { guardCommand, portableGuardCommand } from "../invocation.ts";
import { undoTracked, writeTracked } from "./exact.ts";
import { hookAuthor, installLefthook, LEFTHOOK_MARKER, lefthookLocal, uninstallLefthook, usesLefthook } from "./hook-managers.ts";

/** What git-hook installation needs from git; tests inject a version to reach the config-hook path. */
export interface GitOps {
  version(): [number, number];
  run(args: string[], cwd: string): GitResult;
}

export const realGit: GitOps = {
  version() {
    const out = gitRaw(["--version"], process.cwd()).stdout;
    const m = /(\d+)\.(\d+)/.exec(out);
    return m ? [Number(m[1]), Number(m[2])] : [0, 0];
  },
  run: (args, cwd) => gitRaw(args, cwd),
};

/** git runs hooks named in config (hook.<name>.event / .command) from this version on. */
export const CONFIG_HOOKS_SINCE: [number, number] = [2, 54];
export const HOOK_NAME = "guard";
export const WRAPPER_MARKER = "guard-managed pre-commit wrapper";
export const PREVIOUS_HOOK = "pre-commit.pre-guard";
const HUSKY_BEGIN = "# >>> guard pre-commit (removed by `guard hook uninstall --git`) >>>";
const HUSKY_END = "# <<< guard pre-commit <<<";

export type GitHookMethod = "config" | "husky" | "lefthook" | "wrapper";

export interface GitHookChange {
  method: GitHookMethod | "none";
  action: "created" | "updated" | "unchanged" | "removed" | "refused";
  path?: string;
  /** git commands run (config method), for the report and for tests. */
  commands?: string[][];
  note?: string;
}

const atLeast = (v: [number, number], min: [number, number]) => v[0] > min[0] || (v[0] === min[0] && v[1] >= min[1]);

interface HooksPath {
  value: string;
  scope: string;
}

function hooksPathSetting(root: string, ops: GitOps): HooksPath | undefined {
  const r = ops.run(["config", "--show-scope", "--get", "core.hooksPath"], root);
  if (r.code !== 0) return undefined;
  const [scope, ...rest] = r.stdout.trim().split("\t");
  return { scope: scope ?? "local", value: rest.join("\t") };
}

const isHusky = (p: string) => /(^|\/)\.husky(\/_)?\/?$/.test(p);

function commonHooksDir(root: string, ops: GitOps): string {
  const r = ops.run(["rev-parse", "--git-common-dir"], root);
  const dir = r.stdout.trim();
  return join(isAbsolute(dir) ? dir : resolve(root, dir), "hooks");
}

export type GitHookPlan =
  | { method: "config" }
  | { method: "husky"; file: string }
  | { method: "lefthook"; file: string }
  | { method: "wrapper"; dir: string }
  | { method: "refused"; note: string };

/** Where guard's pre-commit goes in this repository, without changing anything. */
export function planGitHook(root: string, ops: GitOps = realGit): GitHookPlan {
  if (atLeast(ops.version(), CONFIG_HOOKS_SINCE)) return { method: "config" };
  const hp = hooksPathSetting(root, ops);
  if (hp && (hp.scope === "global" || hp.scope === "system"))
    return {
      method: "refused",
      note: `core.hooksPath is set in ${hp.scope} config (${hp.value}); guard never writes into a hooks dir shared by every repository. Add \`${guardCommand("precommit")}\` to ${hp.value}/pre-commit yourself, or upgrade git to ${CONFIG_HOOKS_SINCE.join(".")}+ for config hooks`,
    };
  if (hp && isHusky(hp.value)) return { method: "husky", file: join(root, ".husky", "pre-commit") };
  if (usesLefthook(root)) return { method: "lefthook", file: lefthookLocal(root) };
  if (hp) return { method: "wrapper", dir: resolve(root, hp.value) };
  return { method: "wrapper", dir: commonHooksDir(root, ops) };
}

export function installGitHook(root: string, ops: GitOps = realGit): GitHookChange {
  const plan = planGitHook(root, ops);
  const cmd = guardCommand("precommit");
  if (plan.method === "refused") return { method: "none", action: "refused", note: plan.note };
  if (plan.method === "config") return installConfigHook(root, ops, cmd);
  // .husky/pre-commit is committed: it names guard through the PATH launcher, never a machine path.
  if (plan.method === "husky") return installHusky(root, plan.file, portableGuardCommand(["precommit"], 1));
  if (plan.method === "lefthook") return { method: "lefthook", ...installLefthook(root, cmd, dirname(commonHooksDir(root, ops))) };
  return installWrapper(plan.dir, cmd);
}

function installConfigHook(root: string, ops: GitOps, cmd: string): GitHookChange {
  const get = (k: string) => ops.run(["config", "--local", "--get-all", `hook.${HOOK_NAME}.${k}`], root);
  const cur = get("command");
  const ev = get("event");
  if (cur.code === 0 && cur.stdout.trim() === cmd && ev.stdout.trim() === "pre-commit") return { method: "config", action: "unchanged", commands: [] };
  const commands = [
    ["config", "--local", "--replace-all", `hook.${HOOK_NAME}.command`, cmd],
    ["config", "--local", "--replace-all", `hook.${HOOK_NAME}.event`, "pre-commit"],
  ];
  for (const c of commands) {
    const r = ops.run(c, root);
    if (r.code !== 0) return { method: "config", action: "refused", commands, note: `git ${c.join(" ")} failed: ${r.stderr.trim().split("\n")[0]}` };
  }
  return { method: "config", action: cur.code === 0 ? "updated" : "created", commands, note: `git config hook.${HOOK_NAME}.* (runs beside any other pre-commit hook)` };
}

const huskyBlock = (cmd: string) => `${HUSKY_BEGIN}\n${cmd}\n${HUSKY_END}\n`;
const HUSKY_RE = new RegExp(`${escape(HUSKY_BEGIN)}\\n[\\s\\S]*?${escape(HUSKY_END)}\\n?`);
function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\`]/g, "\\$&");
}

function installHusky(root: string, file: string, cmd: string): GitHookChange {
  const exists = existsSync(file);
  const prev = exists ? readFileSync(file, "utf8") : "";
  const block = huskyBlock(cmd);
  const write = (text: string) => writeTracked(root, homedir(), file, text, (t) => HUSKY_RE.test(t), exists ? undefined : 0o755);
  if (HUSKY_RE.test(prev)) {
    const next = prev.replace(HUSKY_RE, block);
    if (next === prev) return { method: "husky", action: "unchanged", path: file };
    recordOwnWrite(root, file, prev, next);
    write(next);
    return { method: "husky", action: "updated", path: file };
  }
  const sep = prev.length > 0 && !prev.endsWith("\n") ? "\n" : "";
  recordOwnWrite(root, file, exists ? prev : undefined, prev + sep + block);
  write(prev + sep + block); // an existing file keeps its own mode (husky runs it with sh)
  return { method: "husky", action: exists ? "updated" : "created", path: file, note: "guard's line runs after the hook's own commands" };
}

export function wrapperScript(cmd: string): string {
  return `#!/bin/sh
# ${WRAPPER_MARKER}. \`guard hook uninstall --git\` puts the previous hook back.
# The previous pre-commit hook, kept as ${PREVIOUS_HOOK}, runs first; its failure stops the commit.
prev="$(dirname "$0")/${PREVIOUS_HOOK}"
if [ -x "$prev" ]; then
  "$prev" "$@" || exit $?
fi
exec ${cmd}
`;
}

function installWrapper(dir: string, cmd: string): GitHookChange {
  const hook = join(dir, "pre-commit");
  const kept = join(dir, PREVIOUS_HOOK);
  const script = wrapperScript(cmd);
  mkdirSync(dir, { recursive: true });
  if (existsSync(hook)) {
    const cur = readFileSync(hook, "utf8");
    if (cur.includes(WRAPPER_MARKER)) {
      if (cur === script) return { method: "wrapper", action: "unchanged", path: hook };
      writeFileSync(hook, script);
      chmodSync(hook, 0o755);
      return { method: "wrapper", action: "updated", path: hook };
    }
    if (existsSync(kept))
      return { method: "wrapper", action: "refused", path: hook, note: `${kept} already exists; guard will not overwrite a kept hook` };
    renameSync(hook, kept);
  }
  writeFileSync(hook, script);
  chmodSync(hook, 0o755);
  return { method: "wrapper", action: "created", path: hook, note: existsSync(kept) ? `the previous hook now lives in ${kept} and runs first` : undefined };
}

/** Remove guard's pre-commit wherever it is; idempotent. */
export function uninstallGitHook(root: string, ops: GitOps = realGit): GitHookChange[] {
  const out: GitHookChange[] = [];
  const section = ops.run(["config", "--local", "--get-regexp", `^hook\\.${HOOK_NAME}\\.`], root);
  if (section.code === 0 && section.stdout.trim()) {
    const c = ["config", "--local", "--remove-section", `hook.${HOOK_NAME}`];
    ops.run(c, root);
    out.push({ method: "config", action: "removed", commands: [c] });
  }
  const husky = join(root, ".husky", "pre-commit");
  if (existsSync(husky)) {
    const cur = readFileSync(husky, "utf8");
    const exact = HUSKY_RE.test(cur) ? undoTracked(root, husky) : undefined;
    if (exact) {
      if (!existsSync(husky)) forgetOwnFile(root, husky);
      out.push({ method: "husky", action: "removed", path: husky, note: exact === "restored" ? "put back byte for byte, with its mode" : undefined });
    }
    else if (HUSKY_RE.test(cur)) {
      const next = cur.replace(HUSKY_RE, "");
      if (next.trim().length === 0) {
        rmSync(husky);
        forgetOwnFile(root, husky);
      } else {
        recordOwnWrite(root, husky, cur, next);
        writeFileSync(husky, next);
      }
      out.push({ method: "husky", action: "removed", path: husky });
    }
  }
  const lefthook = uninstallLefthook(root);
  if (lefthook) out.push({ method: "lefthook", ...lefthook });
  const hp = hooksPathSetting(root, ops);
  const dirs = new Set([commonHooksDir(root, ops)]);
  if (hp && hp.scope !== "global" && hp.scope !== "system" && !isHusky(hp.value)) dirs.add(resolve(root, hp.value));
  for (const dir of dirs) {
    const hook = join(dir, "pre-commit");
    const kept = join(dir, PREVIOUS_HOOK);
    if (!existsSync(hook) || !readFileSync(hook, "utf8").includes(WRAPPER_MARKER)) continue;
    rmSync(hook);
    if (existsSync(kept)) renameSync(kept, hook);
    out.push({ method: "wrapper", action: "removed", path: hook, note: existsSync(hook) ? "the previous hook is back in place" : undefined });
  }
  return out;
}

/** Where guard's pre-commit is installed, if anywhere, and whether another tool has pushed it out. */
export function gitHookStatus(root: string, ops: GitOps = realGit): { installed: GitHookMethod[]; plan: GitHookPlan; displaced?: string; note?: string } {
  const installed: GitHookMethod[] = [];
  const section = ops.run(["config", "--local", "--get-regexp", `^hook\\.${HOOK_NAME}\\.`], root);
  if (section.code === 0 && section.stdout.trim()) installed.push("config");
  const husky = join(root, ".husky", "pre-commit");
  if (existsSync(husky) && HUSKY_RE.test(readFileSync(husky, "utf8"))) installed.push("husky");
  if (hasMarker(lefthookLocal(root), LEFTHOOK_MARKER)) installed.push("lefthook");
  const plan = planGitHook(root, ops);
  const dirs = [...new Set([commonHooksDir(root, ops), ...(plan.method === "wrapper" ? [plan.dir] : [])])];
  let note: string | undefined;
  let displaced: string | undefined;
  for (const d of dirs) {
    const hook = join(d, "pre-commit");
    if (hasMarker(hook, WRAPPER_MARKER)) installed.push("wrapper");
    else if (hasMarker(join(d, "pre-commit.legacy"), WRAPPER_MARKER) && existsSync(hook)) {
      installed.push("wrapper");
      note = `guard's wrapper runs as pre-commit.legacy, first, through ${hookAuthor(readFileSync(hook, "utf8"))}'s hook`;
    } else if (existsSync(hook) && (hasMarker(join(d, "pre-commit.old"), WRAPPER_MARKER) || existsSync(join(d, PREVIOUS_HOOK))))
      displaced = `${hookAuthor(readFileSync(hook, "utf8"))} replaced guard's pre-commit wrapper in ${d}: guard's gate no longer runs on commit; run \`guard hook install --git\``;
  }
  if (installed.length) displaced = undefined;
  return { installed: [...new Set(installed)], plan, ...(displaced ? { displaced } : {}), ...(note ? { note } : {}) };
}

const hasMarker = (path: string, marker: string) => existsSync(path) && readFileSync(path, "utf8").includes(marker);
