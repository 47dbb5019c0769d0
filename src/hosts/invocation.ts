import { resolve } from "node:path";

/** POSIX single-quote a word when it needs it. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_\/.,:=+@%-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** True when this process is the compiled single-file binary (its sources live in Bun's virtual fs). */
export function isCompiled(): boolean {
  return Bun.main.startsWith("/$bunfs/") || /^[A-Z]:\\~BUN\\/.test(Bun.main);
}

/**
 * The words that start guard from a hook config, by absolute path: the binary itself when compiled,
 * else the running bun on this checkout's src/cli/main.ts. `GUARD_HOOK_COMMAND` overrides it (tests, wrappers).
 */
export function guardArgv(): string[] {
  const override = process.env.GUARD_HOOK_COMMAND;
  if (override) return override.split(" ").filter(Boolean);
  if (isCompiled()) return [process.execPath];
  return [process.execPath, resolve(import.meta.dir, "..", "cli", "main.ts")];
}

/**
 * The shell command a machine-local hook config (settings.local.json, .git/hooks, git config) runs for
 * `guard <args…>`: guard by absolute path, with the GUARD_HOME it was installed under when one was set.
 */
export function guardCommand(...args: string[]): string {
  const home = process.env.GUARD_HOME;
  const env = home && home.length > 0 && !process.env.GUARD_HOOK_COMMAND ? `env GUARD_HOME=${shellQuote(resolve(home))} ` : "";
  return env + [...guardArgv(), ...args].map(shellQuote).join(" ");
}

/** Where scripts/install.sh puts guard when no prefix is given; a launcher looks there after PATH. */
export const DEFAULT_BIN = "$HOME/.guard/bin/guard";

/** What a committed hook says when guard is not on this machine (no backticks: it sits inside a shell string). */
export const MISSING_GUARD =
  "guard: not found on PATH or in ~/.guard/bin; install it with: sh install.sh (from a guard release; see its README), or remove guard's hooks with: guard hook uninstall";

/**
 * The command a committed hook file (shared settings, .husky/pre-commit) runs for `guard <args…>`: no
 * machine path. It finds `guard` on PATH (then in ~/.guard/bin), and when there is none it prints
 * MISSING_GUARD and exits with `failCode` (2 = the host blocks the action, fail closed). GUARD_HOME comes
 * from the environment of whoever runs it.
 */
export function portableGuardCommand(args: string[], failCode: number): string {
  return `g=$(command -v guard || echo "${DEFAULT_BIN}"); [ -x "$g" ] || { echo "${MISSING_GUARD}" >&2; exit ${failCode}; }; exec "$g" ${args.map(shellQuote).join(" ")}`;
}

/** Whether a hook command in someone's config is one of guard's (for `hostId`, or any host). */
export function isGuardHookCommand(command: unknown, hostId?: string): boolean {
  if (typeof command !== "string") return false;
  const host = hostId ? hostId.replace(/[-]/g, "\\-") : "[a-z-]+";
  return new RegExp(`\\S\\s+agent-event\\s+${host}\\s+[a-z-]+(\\s|$)`).test(command);
}
