import type { Finding, PostReport } from "../decide/gate/types.ts";
import { envelope, type Envelope } from "../kernel/envelope.ts";

/** A post report is at most this many lines; findings beyond the room are counted, not printed. */
export const MAX_POST_LINES = 40;

const mark = { hard: "✗", warn: "!", info: "·" } as const;

function findingLine(f: Finding): string {
  const where = f.file ? `${f.file}${f.line ? `:${f.line}` : ""} ` : "";
  const allowed = f.allowed ? ` (allowed: ${f.allowed})` : "";
  return `${mark[f.severity]} ${f.code} ${where}${f.message}${allowed}`.slice(0, 240);
}

export function formatPost(r: PostReport): string {
  const head = [
    r.focus
      ? `guard post --focus ${r.focus}: ${r.verdict === "APPROVED" ? "no blocking finding" : r.verdict} (score ${r.score}/100); only ${r.focus} was judged, so this approves nothing`
      : `guard post: ${r.verdict} (score ${r.score}/100)`,
    `task: ${r.task.length > 100 ? `${r.task.slice(0, 100)}…` : r.task}`,
    `judged: ${r.files.length} file(s)${r.judgedSession ? ` of session ${r.judgedSession}` : ""}${r.base ? ` against ${r.base.slice(0, 12)}` : ""}`,
  ];
  const tail: string[] = [];
  if (r.notJudged.length > 0) tail.push(`not judged: ${r.notJudged.slice(0, 3).map((n) => `${n.path} (${n.why})`).join("; ")}${r.notJudged.length > 3 ? `; ${r.notJudged.length - 3} more` : ""}`);
  if (r.health) tail.push(`health: ${[r.health.build, r.health.tests].filter(Boolean).join("; ")}`);
  tail.push(r.llm.ran ? `llm review: ${r.llm.note}` : r.llm.note);
  for (const n of r.notes ?? []) tail.push(`note: ${n}`);
  if (r.approval)
    tail.push(
      r.approval.written && r.approval.files === 0
        ? "approval: nothing to sign (the task changed no files)"
        : r.approval.written
          ? `approval: signed for ${r.approval.files} file(s); \`git commit\` passes while they stay as they are`
          : `approval: none — ${r.approval.note ?? ""}`.trimEnd(),
    );
  const room = MAX_POST_LINES - head.length - tail.length - 1;
  const body: string[] = [];
  const shown = r.findings.length > room ? room - 1 : r.findings.length;
  for (const f of r.findings.slice(0, Math.max(0, shown))) body.push(findingLine(f));
  if (r.findings.length > shown) body.push(`… ${r.findings.length - shown} more finding(s): guard post --json lists them all`);
  if (r.findings.length === 0) body.push("no findings");
  return `${[...head, ...body, ...tail].join("\n")}\n`;
}

export function postEnvelope(r: PostReport): Envelope<PostReport> {
  return envelope("gate-post", r, r.verdict === "APPROVED");
}
