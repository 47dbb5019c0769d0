/** Counting engine servers independently of guard: from /proc, by the socket named in their process title. */
import { readdirSync, readFileSync } from "node:fs";

/** The servers whose process title names this socket (zombies excluded): the servers of one GUARD_HOME. */
export function serversOn(socket: string): number[] {
  const pids: number[] = [];
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const cmd = readFileSync(`/proc/${d}/cmdline`, "utf8");
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      if (/(redis|valkey)-server/.test(cmd) && cmd.split(/[\0 ]/).some((w) => w === socket || w === `unixsocket:${socket}`) && !/\) Z /.test(stat)) pids.push(Number(d));
    } catch {}
  }
  return pids;
}

export async function waitFor(cond: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return true;
    await Bun.sleep(100);
  }
  return cond();
}

