import { clearApproval, writeApproval } from "../approval/store.ts";
import type { PostOutcome } from "./post.ts";
import { readSessionBytes } from "../../decide/gate/session.ts";

/**
 * After a full `post`: APPROVED signs the judged files as they are now; REVISE withdraws this session's
 * earlier approval. A focused run (`--focus`) checks one pillar and never approves.
 */
export function settleApproval(root: string, o: PostOutcome): PostOutcome {
  const r = o.report;
  const judged = r.judgedSession;
  if (r.focus) {
    r.approval = { written: false, files: 0, note: `--focus ${r.focus} checks one pillar and never approves; run \`guard post\` for the approval` };
  } else if (r.verdict === "APPROVED") {
    const bytes = readSessionBytes(root);
    if (bytes === undefined) r.approval = { written: false, files: 0, note: "the task record disappeared during post" };
    else {
      writeApproval(root, { session: o.session.id, sessionBytes: bytes, base: o.session.base, task: o.session.task, judged, files: o.judged });
      r.approval = { written: true, files: Object.keys(o.judged).length };
    }
  } else {
    clearApproval(root, judged ?? "owner");
    r.approval = { written: false, files: 0, note: "REVISE: no approval, so the pre-commit gate refuses this change" };
  }
  return o;
}
