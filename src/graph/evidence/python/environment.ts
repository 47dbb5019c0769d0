import { existsSync } from "node:fs";
import { join } from "node:path";

/** How to start the project's Python: the interpreter and how a user adds a dev tool to it. */
export interface PythonEnv {
  kind: "venv" | "uv" | "poetry" | "virtualenv" | "system";
  python: string;
  /** The command a user runs to add `pkg` to this environment. */
  addCommand(pkg: string): string;
}

const which = (cmd: string, path = process.env.PATH): string | undefined => Bun.which(cmd, { PATH: path ?? "" }) ?? undefined;

/** Find the project's interpreter: .venv / venv (uv and poetry in-project too), poetry's env, $VIRTUAL_ENV, python3. */
export function detectPythonEnv(dir: string, env: Record<string, string | undefined> = process.env): PythonEnv {
  const uvProject = existsSync(join(dir, "uv.lock"));
  const poetryProject = existsSync(join(dir, "poetry.lock"));
  for (const venv of [".venv", "venv"]) {
    const python = join(dir, venv, "bin", "python");
    if (existsSync(python)) {
      if (uvProject) return { kind: "uv", python, addCommand: (p) => `uv add --dev ${p}` };
      if (poetryProject) return { kind: "poetry", python, addCommand: (p) => `poetry add --group dev ${p}` };
      return { kind: "venv", python, addCommand: (p) => `${venv}/bin/python -m pip install ${p}` };
    }
  }
  if (poetryProject && which("poetry", env.PATH)) {
    const r = Bun.spawnSync(["poetry", "env", "info", "--path"], { cwd: dir, stdout: "pipe", stderr: "ignore" });
    const path = r.stdout.toString().trim();
    if (r.exitCode === 0 && path && existsSync(join(path, "bin", "python")))
      return { kind: "poetry", python: join(path, "bin", "python"), addCommand: (p) => `poetry add --group dev ${p}` };
  }
  if (env.VIRTUAL_ENV && existsSync(join(env.VIRTUAL_ENV, "bin", "python")))
    return { kind: "virtualenv", python: join(env.VIRTUAL_ENV, "bin", "python"), addCommand: (p) => `python -m pip install ${p}` };
  const python = which("python3", env.PATH) ?? which("python", env.PATH) ?? "python3";
  return { kind: "system", python, addCommand: (p) => `${python} -m pip install ${p}` };
}

/** Which of `modules` the interpreter cannot import. */
export function missingModules(python: string, modules: string[], cwd: string): string[] {
  const script = `import importlib.util,sys\nprint(" ".join(m for m in sys.argv[1:] if importlib.util.find_spec(m) is None))`;
  const r = Bun.spawnSync([python, "-c", script, ...modules], { cwd, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) return modules;
  return r.stdout.toString().trim().split(/\s+/).filter(Boolean);
}

/** What guard's pytest recording needs to know of an interpreter, from one start of it. */
export interface PythonProbe {
  /** Which of the modules asked about it cannot import. */
  missing: string[];
  /** It has sys.monitoring (Python 3.12+): guard's plugin records lines without coverage.py. */
  monitoring: boolean;
  /** The interpreter itself (sys.executable): started directly, it skips a version manager's shim (pyenv's costs 0.1 s a start). */
  executable?: string;
}

export function probePython(python: string, modules: string[], cwd: string): PythonProbe {
  const script = `import importlib.util,json,sys\nprint(json.dumps({"missing": [m for m in sys.argv[1:] if importlib.util.find_spec(m) is None], "monitoring": hasattr(sys, "monitoring"), "executable": sys.executable}))`;
  const r = Bun.spawnSync([python, "-c", script, ...modules], { cwd, stdout: "pipe", stderr: "pipe" });
  try {
    const out = JSON.parse(r.stdout.toString()) as { missing: string[]; monitoring: boolean; executable: string };
    if (r.exitCode === 0 && Array.isArray(out.missing)) return { missing: out.missing, monitoring: out.monitoring === true, ...(out.executable ? { executable: out.executable } : {}) };
  } catch {}
  return { missing: modules, monitoring: false };
}
