import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";
import { basename } from "node:path";

/**
 * The graph that holds one repository: `guard_<dir name>_<12 hex of the root's real path>`. Stable for a
 * checkout, distinct for two checkouts with the same name, and only [A-Za-z0-9_] so it is safe anywhere.
 */
export function graphName(root: string): string {
  let real = root;
  try {
    real = realpathSync(root);
  } catch {}
  const slug = basename(real).replace(/[^A-Za-z0-9_]+/g, "_").replace(/^_+|_+$/g, "").slice(0, 40) || "repo";
  const hash = createHash("sha256").update(real).digest("hex").slice(0, 12);
  return `guard_${slug}_${hash}`;
}
