import { activeSessions } from "../../decide/gate/sessions.ts";
import type { DoctorCheck } from "./check.ts";

/** How far back hook events count as a session working in this tree. */
export const SHARED_TREE_WINDOW_MS = 24 * 3600_000;

export const sharedTree: DoctorCheck = {
  id: "gate.shared-tree",
  section: "gate",
  title: "agent sessions per working tree",
  async run(ctx) {
    if (!ctx.root) return { status: "info", summary: "not in a repository" };
    const sessions = activeSessions(ctx.root, SHARED_TREE_WINDOW_MS);
    if (sessions.length <= 1) return { status: "ok", summary: sessions.length === 0 ? "no agent session seen in the last 24 h" : "one agent session in the last 24 h" };
    return {
      status: "warn",
      summary: `${sessions.length} agent sessions worked in this tree in the last 24 h; each is judged on its own edits, but they can still trip over each other`,
      details: { sessions },
      todo: "give each agent its own worktree: `git worktree add ../<name> -b <branch>` and start the agent there",
    };
  },
};
