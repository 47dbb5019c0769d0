import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { detectChange, type FileChange } from "../../src/decide/why/detect.ts";
import { KIND_IDS } from "../../src/decide/why/kinds.ts";

/**
 * One test per case file under fixtures/why/cases/<kind>/: the before/after contents must give exactly
 * the expected finding kinds (cosmetic/ cases: none at all).
 */
interface Case {
  path: string;
  moves_to?: string;
  expect: string[];
  before: string;
  after: string;
}

const ROOT = join(import.meta.dir, "..", "..", "fixtures", "why", "cases");
const folders = readdirSync(ROOT).sort();

describe("why detector cases", () => {
  for (const folder of folders) {
    for (const file of readdirSync(join(ROOT, folder)).filter((f) => f.endsWith(".yaml")).sort()) {
      const c = Bun.YAML.parse(readFileSync(join(ROOT, folder, file), "utf8")) as Case;
      test(`${folder}/${file}`, async () => {
        const change: FileChange[] = c.moves_to
          ? [
              { path: c.path, before: c.before, after: undefined },
              { path: c.moves_to, before: undefined, after: c.after },
            ]
          : [{ path: c.path, before: c.before, after: c.after }];
        const findings = await detectChange(change);
        const kinds = [...new Set(findings.map((f) => f.kind))].sort();
        expect({ case: `${folder}/${file}`, kinds, messages: findings.map((f) => f.message) }).toMatchObject({ kinds: [...c.expect].sort() });
        if (folder !== "cosmetic") expect(c.expect).toEqual([folder]);
      });
    }
  }

  test("every kind has a case in TypeScript and in Python, and cosmetic controls exist for both", () => {
    for (const kind of KIND_IDS) {
      const files = readdirSync(join(ROOT, kind));
      expect({ kind, ts: files.some((f) => f.startsWith("ts-")) }).toEqual({ kind, ts: true });
      expect({ kind, py: files.some((f) => f.startsWith("py-")) }).toEqual({ kind, py: true });
    }
    const cosmetic = readdirSync(join(ROOT, "cosmetic"));
    for (const what of ["rename", "parentheses", "reformat", "reordered-arguments", "retry-raised"])
      for (const lang of ["ts", "py"]) expect(cosmetic.some((f) => f.startsWith(`${lang}-${what}`))).toBe(true);
  });
});

test("a named function expression used as a callback is its own scope", async () => {
  const before = "export function sweep(jobs) {\n  jobs.forEach(function expireOne(job) {\n    if (job.pinned) return;\n    job.expire();\n  });\n}\n";
  const after = before.replace("    if (job.pinned) return;\n", "");
  const findings = await detectChange([{ path: "src/jobs/sweep.js", before, after }]);
  expect(findings.map((f) => [f.kind, f.symbol])).toEqual([["condition_removed", "sweep.expireOne"]]);
});
