import type { Decision } from "../decide/decision.ts";
import { allow } from "../decide/decision.ts";

/**
 * The pre-shell check. A minimal built-in rule set stands here until the shell classifier
 * (src/decide/shell, whose API is in place but still blocks everything) can classify; then this
 * function returns `guardCommand(command, ctx)` from there and the rules below go.
 */
export async function checkShell(command: string, _ctx: { cwd: string; root: string }): Promise<Decision> {
  if (command.trim().length === 0)
    return { decision: "BLOCK", code: "HOOK_NO_COMMAND", reason: "the payload named a shell tool but carried no command" };
  for (const segment of splitSegments(command)) {
    for (const rule of MINIMAL_RULES) {
      const d = rule(segment);
      if (d) return d;
    }
  }
  return allow("SHELL_NO_RULE", "no rule matched this command");
}

type Rule = (argv: string[]) => Decision | undefined;

/** Commands split at ; && || | and newlines, each into words (quotes stripped, no expansion). */
export function splitSegments(command: string): string[][] {
  return command
    .split(/\|\||&&|[;|\n]/)
    .map((s) => (s.match(/"[^"]*"|'[^']*'|\S+/g) ?? []).map((w) => w.replace(/^["']|["']$/g, "")))
    .map((argv) => (argv[0] === "sudo" ? argv.slice(1) : argv))
    .filter((argv) => argv.length > 0);
}

const ROOTLIKE = new Set(["/", "/*", "~", "~/", "~/*", "$HOME", "${HOME}", "$HOME/", "$HOME/*", ".", "./", "..", "*", "/home", "/usr", "/etc"]);
const touchesGuardState = (w: string) => /(^|\/)\.guard(\/|$)/.test(w);

const MINIMAL_RULES: Rule[] = [
  (a) => {
    if (a[0] !== "rm") return;
    const flags = a.filter((w) => w.startsWith("-")).join("");
    const recursive = /r|R|--recursive/.test(flags);
    const targets = a.slice(1).filter((w) => !w.startsWith("-"));
    if (recursive && targets.some((t) => ROOTLIKE.has(t)))
      return { decision: "BLOCK", code: "SHELL_RM_ROOT", reason: `\`${a.join(" ")}\` deletes a whole tree that cannot be restored` };
  },
  (a) => {
    if (a[0] !== "git" || a[1] !== "push") return;
    if (a.some((w) => w === "--force" || w === "-f" || /^-[a-zA-Z]*f/.test(w) || w.startsWith("--force-with-lease") || /^\+/.test(w)))
      return { decision: "BLOCK", code: "SHELL_GIT_FORCE_PUSH", reason: "a force push rewrites the remote's history; push without --force" };
  },
  (a) => {
    if (a[0] === "git" && a[1] === "reset" && a.includes("--hard"))
      return { decision: "ASK", code: "SHELL_GIT_RESET_HARD", reason: "`git reset --hard` discards uncommitted work" };
    if (a[0] === "git" && a[1] === "clean" && a.some((w) => /^-[a-zA-Z]*f/.test(w)))
      return { decision: "ASK", code: "SHELL_GIT_CLEAN", reason: "`git clean -f` deletes untracked files for good" };
  },
  (a) => {
    if (/^mkfs(\.|$)/.test(a[0] ?? "") || (a[0] === "dd" && a.some((w) => w.startsWith("of=/dev/"))))
      return { decision: "BLOCK", code: "SHELL_DISK_WIPE", reason: `\`${a[0]}\` overwrites a device` };
  },
  (a) => {
    if (["rm", "mv", "truncate", "shred"].includes(a[0] ?? "") && a.slice(1).some(touchesGuardState))
      return { decision: "BLOCK", code: "SHELL_GUARD_STATE", reason: "guard's state in .guard/ is not the agent's to change" };
  },
];
