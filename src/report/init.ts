import type { InitReport } from "../graph/init.ts";
import type { InitFlowReport, StepOutcome } from "../cli/setup/init-flow.ts";
import { envelope, type Envelope } from "../kernel/envelope.ts";

export const initEnvelope = (r: InitFlowReport): Envelope<InitFlowReport> => envelope("init", r, r.ok);

function engineLines(r: InitReport): string[] {
  const lines = [
    `  state     ${r.stateDir}${r.excluded ? " (excluded from git through .git/info/exclude)" : " (NOT excluded from git)"}`,
    `  engine    ${r.backend} at ${r.target}: ${r.server}, ${r.module}`,
    `  graph     ${r.graph}${r.graphCreated ? " (created)" : " (already there)"}`,
  ];
  if (r.configWritten) lines.push(`  config    ${r.configWritten}`);
  if (r.passwordNotStored) lines.push("  note      the password in --url was used but not stored; set GUARD_ENGINE_PASSWORD for later runs");
  return lines;
}

function outcome<T>(label: string, o: StepOutcome<T>, done: (r: T) => string): string {
  const name = label.padEnd(9);
  if (o.status === "done") return `  ${name} ${done(o.result)}`;
  if (o.status === "skipped") return `  ${name} skipped: ${o.reason}`;
  return `  ${name} FAILED: ${o.reason}`;
}

export function formatInit(r: InitFlowReport): string {
  const lines = [`guard initialised in ${r.engine.root}`, ...engineLines(r.engine)];
  lines.push(
    outcome("index", r.index, (x) => {
      const extra = [x.failures.length ? `${x.failures.length} with syntax errors` : "", x.skipped.length ? `${x.skipped.length} skipped` : ""].filter(Boolean);
      return `${x.files} files, ${x.functions} functions, ${x.tests} tests, ${x.edges} edges (${x.seconds.toFixed(2)} s)${extra.length ? `; ${extra.join(", ")}` : ""}`;
    }),
  );
  lines.push(
    outcome("evidence", r.evidence, (x) =>
      x.ok
        ? `${x.tests.total} tests recorded (${x.tests.passed} passed, ${x.tests.failed} failed) in ${(x.durationMs / 1000).toFixed(1)} s`
        : `self-check FAILED: ${x.notes[0] ?? `${x.withoutEvidence.length} passing tests have no evidence`}; selection runs the full suite until \`guard evidence\` succeeds`,
    ),
  );
  for (const h of r.hooks.installed) lines.push(`  hooks     ${h.action} ${h.host}${h.path ? ` (${h.path})` : ""}${h.note ? `: ${h.note}` : ""}`);
  if (r.hooks.git) lines.push(`  git hook  ${r.hooks.git.action} (${r.hooks.git.method})${r.hooks.git.note ? `: ${r.hooks.git.note}` : ""}`);
  for (const s of r.hooks.suggested) lines.push(`  hooks     ${s.name} found; install with: guard hook install --host ${s.id}`);
  lines.push(r.ok ? "next: guard doctor" : "some steps failed (above); guard stays safe: without evidence it runs the whole suite");
  return `${lines.join("\n")}\n`;
}
