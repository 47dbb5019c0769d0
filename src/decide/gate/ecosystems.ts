import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The build or typecheck command `post` runs for health, per ecosystem, as data. The first record whose
 * marker file exists and whose tool is present wins; `gate.build` in guard.json overrides it. Commands
 * must not write into the working tree (no bytecode, no build output guard did not ask for).
 */
export interface EcosystemRecord {
  id: string;
  marker: string;
  command: string[];
  /** A file that must exist for the command to make sense (the tool installed in the repo). */
  requires?: string;
  /** A program that must be on PATH. */
  program?: string;
}

export const ECOSYSTEMS: readonly EcosystemRecord[] = [
  { id: "typescript", marker: "tsconfig.json", command: ["node_modules/.bin/tsc", "--noEmit", "-p", "."], requires: "node_modules/.bin/tsc" },
  { id: "go", marker: "go.mod", command: ["go", "vet", "./..."], program: "go" },
  { id: "rust", marker: "Cargo.toml", command: ["cargo", "check", "--quiet"], program: "cargo" },
  { id: "maven", marker: "pom.xml", command: ["mvn", "-q", "-o", "compile"], program: "mvn" },
  // Python: parse every tracked .py file without writing bytecode.
  {
    id: "python",
    marker: "pyproject.toml",
    command: ["python3", "-c", "import ast,subprocess,sys\nfor f in subprocess.run(['git','ls-files','*.py'],capture_output=True,text=True).stdout.split():\n    ast.parse(open(f,encoding='utf-8').read(),f)"],
    program: "python3",
  },
  { id: "node", marker: "package.json", command: ["npm", "run", "--silent", "build"], program: "npm" },
];

export interface BuildCommand {
  command: string[];
  display: string;
  ecosystem: string;
}

export function detectBuild(root: string, override?: string[]): BuildCommand | undefined {
  if (override && override.length > 0) return { command: override, display: override.join(" "), ecosystem: "configured" };
  for (const e of ECOSYSTEMS) {
    if (!existsSync(join(root, e.marker))) continue;
    if (e.requires && !existsSync(join(root, e.requires))) continue;
    if (e.program && !Bun.which(e.program)) continue;
    if (e.id === "node" && !hasBuildScript(root)) continue;
    return { command: e.command, display: e.id === "python" ? "python3 (parse every .py file)" : e.command.join(" "), ecosystem: e.id };
  }
  return undefined;
}

function hasBuildScript(root: string): boolean {
  try {
    return typeof JSON.parse(readFileSync(join(root, "package.json"), "utf8"))?.scripts?.build === "string";
  } catch {
    return false;
  }
}
