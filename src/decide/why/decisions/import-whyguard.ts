import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseDecision } from "./load.ts";
import { renderDecision } from "./write.ts";

/** Where WhyGuard keeps its decisions (same fields as guard's, evidence as `{ type, id }` objects). */
export const WHYGUARD_DIR = ".whyguard/decisions";

export interface ImportResult {
  imported: { from: string; to: string; id: string }[];
  skipped: { from: string; why: string }[];
}

export const whyguardFiles = (root: string): string[] => {
  const dir = join(root, WHYGUARD_DIR);
  return existsSync(dir) ? readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort().map((f) => `${WHYGUARD_DIR}/${f}`) : [];
};

/**
 * Convert WhyGuard decision files into guard's `.guard-decisions/<id>.yaml`, validated the same way as
 * guard's own. Existing guard decisions are never overwritten; invalid files are named and skipped.
 */
export function importWhyguard(root: string, targetDir: string): ImportResult {
  const result: ImportResult = { imported: [], skipped: [] };
  for (const from of whyguardFiles(root)) {
    let d;
    try {
      d = parseDecision(from, readFileSync(join(root, from), "utf8"));
    } catch (e) {
      result.skipped.push({ from, why: e instanceof Error ? e.message : String(e) });
      continue;
    }
    const to = `${targetDir}/${d.id}.yaml`;
    if (existsSync(join(root, to)) || existsSync(join(root, `${targetDir}/${d.id}.yml`))) {
      result.skipped.push({ from, why: `${to} exists already` });
      continue;
    }
    const { source: _s, expired: _e, ...decision } = d;
    mkdirSync(join(root, targetDir), { recursive: true });
    writeFileSync(join(root, to), renderDecision(decision));
    result.imported.push({ from, to, id: d.id });
  }
  return result;
}
