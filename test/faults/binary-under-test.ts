import { builtHostBinary } from "../release/build-once.ts";

/**
 * The compiled guard the fault tests run: the build of the current sources (cached per source state), or
 * GUARD_TEST_BINARY to replay the same faults against another build (an older release, say).
 */
export async function guardBinary(): Promise<string> {
  return process.env.GUARD_TEST_BINARY ?? (await builtHostBinary());
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run the binary to the end, stdin closed, output captured. */
export function runBinary(bin: string, args: string[], cwd: string, env: Record<string, string> = {}): Run {
  const p = Bun.spawnSync([bin, ...args], { cwd, env: { ...process.env, ...env }, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode ?? -1, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
}
