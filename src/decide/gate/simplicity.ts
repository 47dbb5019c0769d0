import { DUPLICATES, type DuplicateRecord } from "./simplicity-list.ts";
import type { FileChange, Finding } from "./types.ts";

type Eco = DuplicateRecord["ecosystem"];

/** Dependency names a manifest declares, per ecosystem. */
export function declaredDependencies(path: string, text: string | undefined): { ecosystem: Eco; names: Set<string> } | undefined {
  if (text === undefined) return undefined;
  const base = path.split("/").pop()!;
  if (base === "package.json") {
    try {
      const pkg = JSON.parse(text);
      return { ecosystem: "npm", names: new Set(["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"].flatMap((k) => Object.keys(pkg[k] ?? {}))) };
    } catch {
      return undefined;
    }
  }
  if (/^requirements.*\.txt$/.test(base)) {
    const names = text.split("\n").map((l) => l.replace(/#.*/, "").trim().split(/[<>=!~;\[\s]/)[0]!.toLowerCase()).filter((n) => n && !n.startsWith("-"));
    return { ecosystem: "pypi", names: new Set(names) };
  }
  if (base === "pyproject.toml") {
    const names = [...text.matchAll(/^\s*["']([A-Za-z0-9_.-]+)\s*(?:[<>=!~\[;].*)?["'],?\s*$/gm)].map((m) => m[1]!.toLowerCase());
    return { ecosystem: "pypi", names: new Set(names) };
  }
  if (base === "go.mod") {
    const names = [...text.matchAll(/^\s*(?:require\s+)?([a-z0-9.-]+\.[a-z]{2,}\/[^\s]+)\s+v[\w.+-]+/gm)].map((m) => m[1]!);
    return { ecosystem: "go", names: new Set(names) };
  }
  return undefined;
}

/** Simplicity: a new dependency that the platform already covers, or a second one for the same job. */
export function simplicity(changes: FileChange[]): Finding[] {
  const out: Finding[] = [];
  for (const c of changes) {
    const after = declaredDependencies(c.path, c.after);
    if (!after) continue;
    const before = declaredDependencies(c.path, c.before)?.names ?? new Set<string>();
    for (const name of after.names) {
      if (before.has(name)) continue;
      const rec = DUPLICATES.find((d) => d.ecosystem === after.ecosystem && d.name === name);
      if (!rec) continue;
      const siblings = rec.family ? DUPLICATES.filter((d) => d.ecosystem === rec.ecosystem && d.family === rec.family && d.name !== name && before.has(d.name)).map((d) => d.name) : [];
      if (rec.platform)
        out.push({ code: "SIMPLE-PLATFORM-DUPLICATE", pillar: "simplicity", severity: "warn", file: c.path, message: `new dependency ${name} duplicates the platform: ${rec.platform}` });
      else if (siblings.length > 0)
        out.push({ code: "SIMPLE-DEPENDENCY-DUPLICATE", pillar: "simplicity", severity: "warn", file: c.path, message: `new dependency ${name} does the same job as ${siblings.join(", ")}, which the project already uses` });
    }
  }
  return out;
}
