import type { Finding } from "./types.ts";

/**
 * The why pillar's verdict on the uncommitted change (working tree vs HEAD): code that history says exists
 * for a reason. A why "block" is a hard finding, a "warn" lowers the score. Only the judged files count.
 */
export async function whyFindings(root: string, judged: Set<string>): Promise<{ findings: Finding[]; note?: string }> {
  try {
    const { verifyWhy } = await import("../why/index.ts");
    const r = await verifyWhy(root, { scope: "working-tree" });
    const findings: Finding[] = [];
    for (const f of r.findings) {
      const file = f.afterFile ?? f.file;
      if (!judged.has(file) && !judged.has(f.file)) continue;
      if (f.verdict === "allow") continue;
      findings.push({ code: `WHY-${f.kind.toUpperCase().replace(/_/g, "-")}`, pillar: "why", severity: f.verdict === "block" ? "hard" : "warn", file, line: f.line, message: `${f.message}: ${f.reason}` });
    }
    return { findings, note: r.notes[0] };
  } catch (e) {
    const why = e instanceof Error ? e.message.split("\n")[0] : String(e);
    return { findings: [{ code: "WHY-UNAVAILABLE", pillar: "why", severity: "warn", message: `the why check could not run: ${why}` }] };
  }
}
