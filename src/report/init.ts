import type { InitReport } from "../graph/init.ts";
import { envelope, type Envelope } from "./envelope.ts";

export const initEnvelope = (r: InitReport): Envelope<InitReport> => envelope("init", r);

export function formatInit(r: InitReport): string {
  const lines = [
    `guard initialised in ${r.root}`,
    `  state   ${r.stateDir}${r.excluded ? " (excluded from git through .git/info/exclude)" : " (NOT excluded from git)"}`,
    `  engine  ${r.backend} at ${r.target}: ${r.server}, ${r.module}`,
    `  graph   ${r.graph}${r.graphCreated ? " (created)" : " (already there)"}`,
  ];
  if (r.configWritten) lines.push(`  config  ${r.configWritten}`);
  if (r.passwordNotStored) lines.push("  note    the password in --url was used but not stored; set GUARD_ENGINE_PASSWORD for later runs");
  lines.push("next: guard doctor");
  return `${lines.join("\n")}\n`;
}
