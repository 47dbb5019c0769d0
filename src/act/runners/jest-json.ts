import { realpathSync } from "node:fs";
import { relative } from "node:path";
import type { TestResult } from "./types.ts";

/** The JSON jest writes with `--json` and vitest with `--reporter=json` (same shape); guard's node:test reporter writes it too. */
export interface JestJson {
  testResults?: {
    name: string;
    message?: string;
    assertionResults?: { ancestorTitles?: string[]; title: string; status: string; duration?: number | null; failureMessages?: string[] }[];
  }[];
}

/**
 * A runner reports real paths; a root reached through a symlink would make every id climb out of the
 * repository (`../../real/place/test/a.test.js`) and match no test guard knows.
 */
function relativeTo(root: string, file: string): string {
  const rel = relative(root, file);
  if (!rel.startsWith("..")) return rel;
  try {
    return relative(realpathSync(root), realpathSync(file));
  } catch {
    return rel;
  }
}

export function parseJestJson(root: string, text: string | undefined): TestResult[] {
  if (!text) return [];
  let data: JestJson;
  try {
    data = JSON.parse(text) as JestJson;
  } catch {
    return [];
  }
  const out: TestResult[] = [];
  for (const file of data.testResults ?? []) {
    const rel = file.name.startsWith("/") ? relativeTo(root, file.name) : file.name;
    const cases = file.assertionResults ?? [];
    if (cases.length === 0 && file.message) {
      // The file failed before any test ran (a syntax or import error).
      out.push({ id: rel, file: rel, name: rel, outcome: "failed", message: `${rel}: ${firstLine(file.message)}` });
      continue;
    }
    for (const c of cases) {
      const qualname = [...(c.ancestorTitles ?? []), c.title].join(" > ");
      const outcome = c.status === "passed" ? "passed" : c.status === "failed" ? "failed" : "skipped";
      out.push({
        id: `${rel}::${qualname}`,
        file: rel,
        name: qualname,
        outcome,
        durationMs: c.duration ?? undefined,
        ...(outcome === "failed" ? { message: `${qualname}: ${firstLine((c.failureMessages ?? []).join("\n"))}` } : {}),
      });
    }
  }
  return out;
}

function firstLine(s: string): string {
  // eslint-style: strip ANSI colours, keep the first line that says something.
  const clean = s.replace(/\u001b\[[0-9;]*m/g, "");
  return (clean.split("\n").find((l) => /assert|expected|error/i.test(l)) ?? clean.split("\n")[0] ?? "").trim().slice(0, 200);
}
