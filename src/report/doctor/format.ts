import { envelope, type Envelope } from "../../kernel/envelope.ts";
import type { DoctorReport } from "../../cli/doctor/run.ts";

export const doctorEnvelope = (r: DoctorReport): Envelope<DoctorReport> => envelope("doctor", r, r.ok);

const MARK = { ok: "ok  ", warn: "warn", fail: "FAIL", info: "info" } as const;

function detailLines(details: Record<string, unknown>): string[] {
  return Object.entries(details).map(([k, v]) => {
    const shown =
      v && typeof v === "object"
        ? Object.entries(v as Record<string, unknown>)
            .map(([a, b]) => `${a} ${String(b)}`)
            .join(", ") || "none"
        : String(v);
    return `         ${k}: ${shown}`;
  });
}

/**
 * engine
 *   ok    graph engine: embedded, redis 8.2.3, FalkorDB 4.16.3
 *          backend: embedded
 */
export function formatDoctor(r: DoctorReport): string {
  const lines: string[] = [];
  let section = "";
  for (const c of r.checks) {
    if (c.section !== section) {
      section = c.section;
      lines.push(section);
    }
    lines.push(`  ${MARK[c.status]}  ${c.title}: ${c.summary}${c.fixed ? " (fixed)" : ""}`);
    if (c.details) lines.push(...detailLines(c.details));
    if (c.todo && (c.status === "warn" || c.status === "fail")) lines.push(`         to do: ${c.todo}`);
  }
  const warns = r.checks.filter((c) => c.status === "warn").length;
  const fails = r.checks.filter((c) => c.status === "fail").length;
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? "" : "s"}`;
  if (fails) lines.push(`guard doctor: ${plural(fails, "problem")}${warns ? `, ${plural(warns, "warning")}` : ""} (see FAIL above)`);
  else lines.push(warns ? `guard doctor: engine ok, ${plural(warns, "warning")} (\`guard doctor --fix\` repairs them)` : "guard doctor: all good");
  return `${lines.join("\n")}\n`;
}
