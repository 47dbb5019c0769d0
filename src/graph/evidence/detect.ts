import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { detectJsProject } from "./js/detect.ts";

export type Ecosystem = "python" | "js" | "go";

const PYTHON_MARKERS = ["pytest.ini", "pyproject.toml", "setup.py", "setup.cfg", "tox.ini", "conftest.py"];

function hasPythonTests(dir: string, depth = 2): boolean {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return false;
  }
  for (const e of entries) {
    if (/^test_.*\.py$|_test\.py$/.test(e)) return true;
    if (depth > 0 && !e.startsWith(".") && e !== "node_modules" && !e.includes("venv") && existsSync(join(dir, e, ".")) && hasPythonTests(join(dir, e), depth - 1)) return true;
  }
  return false;
}

/** Which test suites live at the top of the repository. */
export function detectEcosystems(root: string): Ecosystem[] {
  const out: Ecosystem[] = [];
  if (PYTHON_MARKERS.some((f) => existsSync(join(root, f))) || hasPythonTests(root)) out.push("python");
  if (detectJsProject(root)) out.push("js");
  if (existsSync(join(root, "go.mod"))) out.push("go");
  return out;
}
