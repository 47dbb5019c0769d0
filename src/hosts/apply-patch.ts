import type { TextEdit } from "./types.ts";

/** What a one-file apply_patch body does to its file, in the terms the edit checks read. */
export interface PatchEffect {
  /** `*** Add File`: the whole new content. */
  content?: string;
  /** `*** Update File`: one replacement per hunk (context and removed lines → context and added lines). */
  edits?: TextEdit[];
}

/**
 * Codex's apply_patch format (`*** Begin Patch`, `*** Update File: x`, `@@` hunks of ` `/`-`/`+` lines,
 * `*** End Patch`). Only a patch on exactly one file that neither moves nor deletes it is read; anything
 * else (a unified diff, several files, a rename) gives nothing, and only path checks apply.
 */
export function patchEffect(patch: string): PatchEffect | undefined {
  const lines = patch.replace(/\r\n/g, "\n").split("\n");
  const heads = lines.filter((l) => /^\*\*\* (?:Add|Update|Delete) File: |^\*\*\* Move to: /.test(l));
  if (heads.length !== 1 || !lines.some((l) => l === "*** Begin Patch")) return undefined;
  const body = lines.slice(lines.indexOf(heads[0]!) + 1).filter((l) => l !== "*** End Patch" && l !== "*** End of File");
  while (body.at(-1) === "") body.pop();
  if (heads[0]!.startsWith("*** Add File: ")) {
    if (!body.every((l) => l.startsWith("+") || l === "")) return undefined;
    return { content: body.filter((l) => l.startsWith("+")).map((l) => `${l.slice(1)}\n`).join("") };
  }
  if (!heads[0]!.startsWith("*** Update File: ")) return undefined;
  const edits: TextEdit[] = [];
  let hunk: { old: string[]; new: string[] } | undefined;
  const close = () => {
    if (hunk && hunk.old.length > 0) edits.push({ oldString: hunk.old.map((l) => `${l}\n`).join(""), newString: hunk.new.map((l) => `${l}\n`).join("") });
    hunk = undefined;
  };
  for (const l of body) {
    if (l.startsWith("@@")) {
      close();
      hunk = { old: [], new: [] };
      continue;
    }
    if (l === "" && hunk === undefined) continue;
    hunk ??= { old: [], new: [] };
    const mark = l[0];
    const text = l.slice(1);
    if (mark === " " || l === "") (hunk.old.push(text), hunk.new.push(text));
    else if (mark === "-") hunk.old.push(text);
    else if (mark === "+") hunk.new.push(text);
    else return undefined;
  }
  close();
  return edits.length > 0 ? { edits } : undefined;
}
