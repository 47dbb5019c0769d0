/**
 * Shared by the engine fault tests: the compiled guard, a private GUARD_HOME per case, and an
 * independent count of the servers running for one GUARD_HOME (read from /proc, not from guard).
 */
import { serversOn } from "../helpers/servers.ts";
import { builtHostBinary } from "../release/build-once.ts";

export { serversOn, waitFor } from "../helpers/servers.ts";

/** A private GUARD_HOME per case, whose servers the run stops at its end even if the case fails midway. */
export { tempHome as newHome } from "../helpers/strays.ts";

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run the compiled guard with this GUARD_HOME (and extra environment). */
export async function guardBin(home: string, args: string[], env: Record<string, string | undefined> = {}, cwd?: string): Promise<Run> {
  const bin = await builtHostBinary();
  const proc = Bun.spawn([bin, ...args], { cwd: cwd ?? home, env: { ...process.env, GUARD_HOME: home, ...env } as Record<string, string>, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** Kill whatever is left on this socket (a test that failed midway must not leave servers behind). */
export function killServers(socket: string): void {
  for (const pid of serversOn(socket)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
}
