import { headSha } from "../../repo/git.ts";
import { assess, whySettings, type WhyReport } from "./assess.ts";
import { openWhyCache } from "./cache.ts";

const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/** The why report for one proposed edit: `current` (working tree) → `proposed`. */
export async function proposedReport(root: string, file: string, current: string | undefined, proposed: string): Promise<WhyReport> {
  const settings = whySettings(root);
  const head = headSha(root);
  const cache = await openWhyCache(root, settings.graph);
  try {
    return await assess(
      root,
      { kind: "rev", rev: head ?? EMPTY_TREE },
      { kind: "worktree" },
      { historyRev: head ?? "HEAD", settings, cache, changes: [{ path: file, before: current, after: proposed }], overlay: { [file]: proposed } },
    );
  } finally {
    await cache?.flush();
  }
}
