import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ensureStateDir } from "../../../state/paths.ts";
import { tracked } from "../../../state/process-tree.ts";
import { underRoot } from "./ids.ts";

/** One process's file from guard's pytest plugin (plugin.py). */
export interface WorkerFile {
  core: string;
  rootdir: string;
  /** The project runs xdist itself (its controller wrote this file). */
  xdist?: boolean;
  coverage: Record<string, Record<string, number[]>>;
  reports: { id: string; when: string; outcome: string; duration: number }[];
  reads: Record<string, string[]>;
  /** Node ids of collectors (modules) that failed to collect. */
  collect_errors?: string[];
  /** The project's own packages the tests imported from outside the checkout (plugin.py _installed_copies). */
  installed_copies?: InstalledCopy[];
}

export interface InstalledCopy {
  name: string;
  /** Absolute: where the tests imported it from. */
  imported: string;
  /** Relative to the repository: the checkout's copy. */
  checkout: string;
}

/** How to start pytest with guard's plugin: the same for every process of one recording. */
export interface PytestCommand {
  root: string;
  dir: string;
  /** Holds guard_evidence.py (and its shard module): put on PYTHONPATH. */
  work: string;
  /** The interpreter, pytest and its options. */
  argv: string[];
  /** What to run (node ids, files); none = what pytest collects by itself. */
  select: string[];
}

export interface PytestExit {
  code: number | null;
  /** "exited with 3", "was killed by SIGKILL". */
  end: string;
  output: string;
}

/** 0 all passed, 1 some failed (still evidence), 5 nothing collected (or nothing left for this shard). */
export const normalExit = (code: number | null): boolean => code === 0 || code === 1 || code === 5;

export async function runPytest(cmd: PytestCommand, out: string, env: Record<string, string> = {}, select = cmd.select): Promise<PytestExit> {
  const proc = tracked(Bun.spawn([...cmd.argv, ...select], {
    cwd: cmd.dir,
    env: {
      ...process.env,
      PYTHONPATH: [cmd.work, process.env.PYTHONPATH].filter(Boolean).join(":"),
      COVERAGE_CORE: "ctrace",
      GUARD_EVIDENCE_ROOT: cmd.root,
      GUARD_EVIDENCE_OUT: out,
      ...bytecodeCache(cmd.root),
      ...env,
    },
    stdout: "pipe",
    stderr: "pipe",
  }));
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, end: proc.signalCode ? `was killed by ${proc.signalCode}` : `exited with ${code}`, output: stdout + "\n" + stderr };
}

/**
 * With PYTHONDONTWRITEBYTECODE set, every pytest process compiles every module and rewrites the asserts of
 * every test module again (toolz: 2 of its 2.2 s); several processes would each pay that. Bytecode then
 * goes to .guard/pycache (PYTHONPYCACHEPREFIX), never into the project's tree, and later processes read
 * it. A PYTHONPYCACHEPREFIX of the user's own is left as it is.
 */
function bytecodeCache(root: string): Record<string, string> {
  if (!process.env.PYTHONDONTWRITEBYTECODE || process.env.PYTHONPYCACHEPREFIX) return { PYTHONDONTWRITEBYTECODE: process.env.PYTHONDONTWRITEBYTECODE ?? "" };
  return { PYTHONDONTWRITEBYTECODE: "", PYTHONPYCACHEPREFIX: join(ensureStateDir(root), "pycache") };
}

/** What one pytest process (and its xdist workers) left in `out`. */
export interface PytestOutput {
  /** Evidence files found, readable or not. */
  files: number;
  workers: WorkerFile[];
  damaged: string[];
  /** Every node id a shard collected, relative to the repository root; undefined when no list was readable. */
  collected?: Set<string>;
}

export function readPytestOutput(out: string): PytestOutput {
  let names: string[] = [];
  try {
    names = readdirSync(out);
  } catch {}
  const evidence = names.filter((f) => f.startsWith("evidence-"));
  const workers: WorkerFile[] = [];
  const damaged: string[] = [];
  for (const f of evidence) {
    try {
      workers.push(JSON.parse(readFileSync(join(out, f), "utf8")) as WorkerFile);
    } catch {
      damaged.push(f);
    }
  }
  let collected: Set<string> | undefined;
  for (const f of names.filter((n) => n.startsWith("collected-"))) {
    try {
      const list = JSON.parse(readFileSync(join(out, f), "utf8")) as { rootdir: string; collected: string[] };
      collected ??= new Set();
      for (const id of list.collected) collected.add(underRoot(list.rootdir, id));
    } catch {}
  }
  return { files: evidence.length, workers, damaged, collected };
}
