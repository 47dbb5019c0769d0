import { pidRunning } from "../../state/process.ts";

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
