import { cpSync, existsSync, mkdtempSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { guardHome } from "../../state/paths.ts";
import { resolveBuild, stopEmbeddedServers } from "./embedded.ts";
import { withFileLock } from "./lock.ts";
import { enginePaths } from "./paths.ts";

/**
 * Repairs `guard doctor --fix` makes to the embedded engine. Damaged data is never deleted: it is moved
 * aside to engine/data.damaged-<time>, where it stays for whoever wants to look at it or salvage it, and
 * the next start begins with what could be salvaged from a copy of it (salvageData), or empty; the caller
 * then rebuilds the repository's graph.
 */
export async function moveDamagedData(home = guardHome()): Promise<string | undefined> {
  const paths = enginePaths(home);
  await stopEmbeddedServers(home);
  return withFileLock(paths.lock, async () => {
    if (!existsSync(paths.data)) return undefined;
    const aside = `${paths.data}.damaged-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    renameSync(paths.data, aside);
    return aside;
  });
}

/**
 * Put a repaired copy of the damaged data (kept at `aside`) in place, when redis's own AOF checker can
 * repair it: a write log damaged midway is cut back to its last whole command, so the graphs and the
 * evidence written before the damage survive. The checker is the server binary run under the name
 * redis-check-aof. Returns whether a copy was put in place; a snapshot that is itself damaged is not.
 */
export async function salvageData(aside: string, home = guardHome()): Promise<boolean> {
  const paths = enginePaths(home);
  if (!existsSync(join(aside, "aof", "appendonly.aof.manifest"))) return false;
  let server: string;
  try {
    server = (await resolveBuild(home, {})).server;
  } catch {
    return false;
  }
  const tmp = `${paths.data}.salvage-${process.pid}`;
  const tools = mkdtempSync(join(paths.dir, ".check-"));
  try {
    cpSync(aside, tmp, { recursive: true });
    symlinkSync(server, join(tools, "redis-check-aof"));
    const r = Bun.spawnSync([join(tools, "redis-check-aof"), "--fix", join(tmp, "aof", "appendonly.aof.manifest")], {
      stdin: Buffer.from("y\n"),
      stdout: "pipe",
      stderr: "pipe",
      timeout: 120_000,
    });
    if (r.exitCode !== 0 || !/All AOF files and manifest are valid/.test(r.stdout.toString())) return false;
    return await withFileLock(paths.lock, async () => {
      if (existsSync(paths.data)) return false;
      renameSync(tmp, paths.data);
      return true;
    });
  } catch {
    return false;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    rmSync(tools, { recursive: true, force: true });
  }
}

/** Drop a salvaged copy that still does not load (the damaged original stays where moveDamagedData put it). */
export async function dropSalvagedData(home = guardHome()): Promise<void> {
  const paths = enginePaths(home);
  await stopEmbeddedServers(home);
  await withFileLock(paths.lock, async () => rmSync(paths.data, { recursive: true, force: true }));
}
