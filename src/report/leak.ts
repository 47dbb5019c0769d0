import type { LeakVerdict } from "../decide/leak/types.ts";
import { envelope, type Envelope } from "../kernel/envelope.ts";

/** Never holds matched bytes: rule ids, offsets and lengths only. */
export const leakEnvelope = (v: LeakVerdict, sanitized?: string): Envelope<LeakVerdict & { sanitized?: string }> =>
  envelope("leak-check", { decision: v.decision, code: v.code, reason: v.reason, channel: v.channel, bytes: v.bytes, findings: v.findings, exempted: v.exempted, ...(sanitized !== undefined ? { sanitized } : {}) }, v.decision !== "BLOCK");

export function formatLeak(v: LeakVerdict): string {
  const out = [`${v.decision}  ${v.code}`, v.reason];
  for (const f of v.findings) out.push(`  ${f.kind.padEnd(10)} ${f.rule.padEnd(30)} bytes ${f.start}-${f.end} (${f.length})`);
  if (v.exempted) out.push(`  ${v.exempted} exempted by sha256`);
  return `${out.join("\n")}\n`;
}
