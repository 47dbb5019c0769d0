/**
 * For the hook benches: a parse worker of the guard under test, running in a private GUARD_HOME, so the
 * "warm" rows measure hooks answered through it and the "cold" rows (GUARD_PARSE_WORKER=0) hooks alone.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { helloFrom } from "../src/code/worker/client.ts";

export interface BenchWorker {
  stop(): void;
  /** CPU time the worker has used so far (user + system, from /proc; 10 ms ticks), to charge its share of warm rows. */
  cpuMs(): number;
}

/** Start `guard parse-worker` (this build's) in `home`, wait for its hello and its warm-up. */
export async function runningWorker(guard: string[], home: string, warm: string, env: Record<string, string | undefined>): Promise<BenchWorker> {
  const child = Bun.spawn([...guard, "parse-worker", "--warm", warm, "--idle-seconds", "900"], { env: { ...env, GUARD_HOME: home }, stdio: ["ignore", "ignore", "ignore"] });
  const dir = join(home, "parse-worker");
  const deadline = Date.now() + 60_000;
  for (;;) {
    const socket = (() => {
      try {
        return readdirSync(dir).find((f) => f.endsWith(".sock"));
      } catch {
        return undefined;
      }
    })();
    if (socket && (await helloFrom(join(dir, socket), 1000))) break;
    if (Date.now() > deadline) throw new Error("the parse worker did not start");
    await Bun.sleep(50);
  }
  // The worker compiles each warmed grammar's hot paths in the background (150 passes); let it finish.
  await Bun.sleep(4000);
  return {
    stop: () => child.kill("SIGTERM"),
    cpuMs: () => {
      const stat = readFileSync(`/proc/${child.pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return (Number(fields[11]) + Number(fields[12])) * 10;
    },
  };
}
