import { describe, expect, test } from "bun:test";
import { patchEffect } from "../../src/hosts/apply-patch.ts";
import { proposedText } from "../../src/hosts/why-check.ts";

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch", ""].join("\n");
const EV = { host: "codex", hostEvent: "pre-tool-use", event: "pre-edit", cwd: "/" } as const;
const FILE = "def charge(order):\n    existing = find(order)\n    if existing:\n        return existing\n    return create(order)\n";

describe("apply_patch bodies read as edits", () => {
  test("an Update hunk becomes one replacement that leaves the file as Codex would", () => {
    const effect = patchEffect(patch("*** Update File: pay.py", "@@ def charge(order):", "     existing = find(order)", "-    if existing:", "-        return existing", "     return create(order)"))!;
    expect(effect.edits).toHaveLength(1);
    const after = proposedText({ ...EV, edits: effect.edits }, FILE);
    expect(after).toBe("def charge(order):\n    existing = find(order)\n    return create(order)\n");
  });

  test("two hunks are two replacements; an Add File is the whole new content", () => {
    const two = patchEffect(patch("*** Update File: a.py", "@@", "-a = 1", "+a = 2", "@@", "-c = 3", "+c = 4"))!;
    expect(proposedText({ ...EV, edits: two.edits }, "a = 1\nb = 2\nc = 3\n")).toBe("a = 2\nb = 2\nc = 4\n");
    expect(patchEffect(patch("*** Add File: new.py", "+x = 1", "+y = 2"))).toEqual({ content: "x = 1\ny = 2\n" });
  });

  test("what cannot be read exactly gives nothing (only path checks apply)", () => {
    expect(patchEffect(patch("*** Update File: a.py", "*** Move to: b.py", "@@", "-a", "+b"))).toBeUndefined();
    expect(patchEffect(patch("*** Update File: a.py", "@@", "-a", "+b", "*** Update File: b.py", "@@", "-c", "+d"))).toBeUndefined();
    expect(patchEffect(patch("*** Delete File: a.py"))).toBeUndefined();
    expect(patchEffect("--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-a\n+b\n")).toBeUndefined();
  });
});
