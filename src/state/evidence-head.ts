import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureStateDir } from "./paths.ts";

/**
 * The commit the repository's evidence was last brought up to (by `guard evidence`, `guard init` or a
 * background refresh), and the process doing it when one is under way: `.guard/evidence-head.json`.
 */
export interface EvidenceHead {
  head: string;
  /** The background refresh's pid while it runs. */
  pid?: number;
  at: string;
}

const file = (root: string) => join(root, ".guard", "evidence-head.json");

export function readEvidenceHead(root: string): EvidenceHead | undefined {
  try {
    const r = JSON.parse(readFileSync(file(root), "utf8")) as EvidenceHead;
    return typeof r.head === "string" && (r.pid === undefined || Number.isInteger(r.pid)) ? r : undefined;
  } catch {
    return undefined;
  }
}

export function writeEvidenceHead(root: string, value: Omit<EvidenceHead, "at">): void {
  try {
    ensureStateDir(root);
    writeFileSync(file(root), JSON.stringify({ ...value, at: new Date().toISOString() }));
  } catch {
    /* only an optimisation: without it a refresh may run once more than needed */
  }
}
