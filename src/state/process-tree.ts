import { pidRunning } from "./process.ts";

/** The processes below `pid` (children, their children, …), from one `ps` listing; [] where ps cannot tell. */
export function descendants(pid: number): number[] {
  let listing = "";
  try {
    const p = Bun.spawnSync(["ps", "-A", "-o", "pid=,ppid="], { stdout: "pipe", stderr: "ignore" });
    if (p.exitCode !== 0) return [];
    listing = p.stdout.toString();
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const row of listing.split("\n")) {
    const [child, parent] = row.trim().split(/\s+/).map(Number);
    if (child && parent !== undefined && Number.isInteger(parent)) (children.get(parent) ?? children.set(parent, []).get(parent)!).push(child);
  }
  const out: number[] = [];
  const stack = [pid];
  while (stack.length > 0) for (const c of children.get(stack.pop()!) ?? []) if (!out.includes(c)) (out.push(c), stack.push(c));
  return out;
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {}
}

/**
 * Stop a test runner and everything it started. Runners keep their workers in processes of their own
 * (vitest's and jest's pools, a test's child process), which outlive a parent that alone was sent SIGTERM
 * and go on spinning on the test that never ended. The tree is listed before anything is signalled (an
 * orphan's parent becomes init), all of it gets SIGTERM, and what still runs after `graceMs` gets SIGKILL.
 */
export async function stopTree(pid: number, graceMs = 3000): Promise<void> {
  if (process.platform === "win32") {
    Bun.spawnSync(["taskkill", "/pid", String(pid), "/T", "/F"], { stdout: "ignore", stderr: "ignore" });
    return;
  }
  const tree = [pid, ...descendants(pid)];
  for (const p of tree) signal(p, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && tree.some(pidRunning)) await Bun.sleep(50);
  for (const p of tree) if (pidRunning(p)) signal(p, "SIGKILL");
}

/** Runners and recorders guard started and waits for: stopped with their trees if guard itself is stopped. */
const children = new Set<number>();
const SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP"] as const;
const handlers = new Map<(typeof SIGNALS)[number], () => void>();

/**
 * Note a child of Bun.spawn (a test runner, a recording's pytest) whose whole tree must not outlive guard,
 * until it exits. A host stops a hook that passes its timeout with SIGTERM, a user a `guard run` with
 * Ctrl-C: without this the runner, and a test hanging in it, went on for good. On SIGTERM, SIGINT or SIGHUP
 * every noted tree is stopped (SIGTERM, SIGKILL a second later), then guard dies of the same signal, as it
 * would have without the handler.
 */
export function tracked<T extends { pid: number; exited: Promise<number> }>(proc: T): T {
  if (!proc.pid || process.platform === "win32") return proc;
  children.add(proc.pid);
  if (handlers.size === 0)
    for (const sig of SIGNALS) {
      const handler = () => stopTrackedAndDie(sig);
      handlers.set(sig, handler);
      process.on(sig, handler);
    }
  const forget = () => void children.delete(proc.pid);
  void proc.exited.then(forget, forget);
  return proc;
}

const SIGNAL_NUMBERS: Record<(typeof SIGNALS)[number], number> = { SIGTERM: 15, SIGINT: 2, SIGHUP: 1 };

/**
 * All of it synchronous, so that nothing of guard's own work (a hook printing its answer) runs after the
 * signal: the trees get SIGTERM, a second later what still runs gets SIGKILL, and guard dies of the signal.
 */
function stopTrackedAndDie(sig: (typeof SIGNALS)[number]): void {
  const tree = [...children].flatMap((pid) => [pid, ...descendants(pid)]);
  for (const p of tree) signal(p, "SIGTERM");
  const deadline = Date.now() + 1000;
  while (Date.now() < deadline && tree.some(pidRunning)) Bun.sleepSync(20);
  for (const p of tree) if (pidRunning(p)) signal(p, "SIGKILL");
  for (const [s, handler] of handlers) process.off(s, handler);
  process.kill(process.pid, sig);
  process.exit(128 + SIGNAL_NUMBERS[sig]);
}
