import { headSha } from "../../repo/git.ts";
import { assess, whySettings, type AssessedFinding } from "./assess.ts";
import { openWhyCache } from "./cache.ts";
import { detectChange, type FileChange } from "./detect.ts";

const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/**
 * The why findings on one proposed edit: `current` (working tree) → `proposed`. The detector runs first;
 * history, decisions and the graph cache are only read when it finds something (most edits remove no
 * protective code, and a hook answers those without starting git).
 */
export async function proposedFindings(root: string, file: string, current: string | undefined, proposed: string): Promise<AssessedFinding[]> {
  const changes: FileChange[] = [{ path: file, before: current, after: proposed }];
  const detected = await detectChange(changes);
  if (detected.length === 0) return [];
  const settings = whySettings(root);
  const head = headSha(root);
  const cache = await openWhyCache(root, settings.graph);
  try {
    const report = await assess(
      root,
      { kind: "rev", rev: head ?? EMPTY_TREE },
      { kind: "worktree" },
      { historyRev: head ?? "HEAD", settings, cache, changes, overlay: { [file]: proposed }, detected },
    );
    return report.findings;
  } finally {
    await cache?.flush();
  }
}
