// Human decisions are human state: an agent's edit tools may not write them, on the host hook path.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { guard, makeRepo } from "../helpers/repo.ts";

const edit = (root: string, file: string) =>
  guard(["agent-event", "claude-code", "PreToolUse"], root, {
    stdin: JSON.stringify({ session_id: "s1", cwd: root, hook_event_name: "PreToolUse", tool_name: "Write", tool_input: { file_path: join(root, file), content: "id: x\n" } }),
  });

test("Write into .guard-decisions/ or .whyguard/ is refused with the reason; an ordinary file is not", () => {
  const root = makeRepo({ "src/app.ts": "export const a = 1;\n" });
  for (const file of [".guard-decisions/pay-001.yaml", ".whyguard/decisions/pay.yml"]) {
    const r = edit(root, file);
    expect(`${r.stdout}${r.stderr}`).toContain("EDIT_HUMAN_DECISION");
    expect(`${r.stdout}${r.stderr}`).toContain("records a human decision");
  }
  const ok = edit(root, "src/app.ts");
  expect(`${ok.stdout}${ok.stderr}`).not.toContain("EDIT_HUMAN_DECISION");
  expect(ok.code).toBe(0);
});
