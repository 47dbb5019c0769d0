import { CATEGORIES, SEVERITIES } from "./schema.ts";

export const SYSTEM_PROMPT = [
  "You review one part of a code change made for a stated task.",
  "Report only real problems in the added or changed code: bugs, security holes, changes the task did not ask for.",
  `Answer with JSON only, exactly: {"findings": [{"file": string, "line": number|null, "severity": one of ${SEVERITIES.join("|")}, "category": one of ${CATEGORIES.join("|")}, "message": string}]}.`,
  'No problems: {"findings": []}.',
].join("\n");

export function userPrompt(task: string, files: string[], diff: string, truncated: boolean): string {
  return `Task: ${task}\nFiles in this part: ${files.join(", ")}${truncated ? "\n(Some diffs were cut to fit; do not report on what you cannot see.)" : ""}\n\n${diff}`;
}
