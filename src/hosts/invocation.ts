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

/** The shell command a hook config runs for `guard <args…>`. */
export function guardCommand(...args: string[]): string {
  return [...guardArgv(), ...args].map(shellQuote).join(" ");
}

/** Whether a hook command in someone's config is one of guard's (for `hostId`, or any host). */
export function isGuardHookCommand(command: unknown, hostId?: string): boolean {
  if (typeof command !== "string") return false;
  const host = hostId ? hostId.replace(/[-]/g, "\\-") : "[a-z-]+";
  return new RegExp(`\\S\\s+agent-event\\s+${host}\\s+[a-z-]+(\\s|$)`).test(command);
}
