import * as v from "valibot";

/** What a reviewer must answer: JSON, validated before any finding is believed. */
export const SEVERITIES = ["critical", "high", "medium", "low", "info"] as const;
export const CATEGORIES = ["correctness", "security", "performance", "maintainability", "style", "other"] as const;

export const ReviewFinding = v.object({
  file: v.string(),
  line: v.optional(v.nullable(v.number())),
  severity: v.picklist(SEVERITIES),
  category: v.picklist(CATEGORIES),
  message: v.pipe(v.string(), v.minLength(1)),
});

export const ReviewReply = v.object({ findings: v.array(ReviewFinding) });
export type ReviewReplyT = v.InferOutput<typeof ReviewReply>;

/** Only these block: a critical or high correctness or security finding. */
export const blocks = (f: v.InferOutput<typeof ReviewFinding>) => (f.severity === "critical" || f.severity === "high") && (f.category === "correctness" || f.category === "security");

/** The JSON object in a model's reply (models wrap it in prose or code fences). */
export function parseReply(text: string): { ok: true; reply: ReviewReplyT } | { ok: false; why: string } {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end <= start) return { ok: false, why: "the reply holds no JSON object" };
  let raw: unknown;
  try {
    raw = JSON.parse(text.slice(start, end + 1));
  } catch (e) {
    return { ok: false, why: `the reply is not valid JSON (${e instanceof Error ? e.message.split("\n")[0] : e})` };
  }
  const r = v.safeParse(ReviewReply, raw);
  if (!r.success) return { ok: false, why: `the reply does not match the findings schema at \`${v.getDotPath(r.issues[0]) ?? "(root)"}\`: ${r.issues[0].message}` };
  return { ok: true, reply: r.output };
}
