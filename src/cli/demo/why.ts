import { verifyWhy } from "../../decide/why/index.ts";
import { formatWhyReport } from "../../report/why.ts";
import type { ScenarioResult } from "./registry.ts";
import { agentSimplifies, buildWhyRepo, gitIn, type WhyVariant } from "./why-scenario.ts";

export async function runWhyDemo(dir: string, variant: WhyVariant): Promise<ScenarioResult> {
  const lines: string[] = [`sample repository: ${dir}`];
  buildWhyRepo(dir, variant);
  lines.push(...gitIn(dir, ["log", "--format=  %h %ad %s", "--date=short"]).stdout.trimEnd().split("\n"));
  agentSimplifies(dir, variant);
  lines.push(
    variant === "block"
      ? "agent: \"charge(): the receipts lookup looks redundant, removed it (and the test that exercised it)\""
      : "agent: \"charge(): the receipts lookup looks redundant, removed it\"",
    "",
  );
  const report = await verifyWhy(dir, { scope: "staged" });
  lines.push("$ guard why verify --scope staged", ...formatWhyReport(report, "verify (staged)").trimEnd().split("\n"), "");
  const c = gitIn(dir, ["commit", "-q", "-m", "Simplify charge()"], "2026-03-01T12:00:00Z");
  const committed = c.code === 0;
  lines.push(`$ git commit -m "Simplify charge()"   (pre-commit hook runs guard why verify)`);
  const hookSaid = `${c.stdout}${c.stderr}`.split("\n").find((l) => l.startsWith("why verify")) ?? "";
  if (hookSaid) lines.push(`  hook: ${hookSaid}`);
  lines.push(committed ? "  the commit went through (a warning is not a block)" : "  the pre-commit hook refused the commit");
  const expected = variant === "block" ? report.verdict === "block" && !committed : report.verdict === "warn" && committed;
  const main = report.findings.find((f) => f.symbol === "PaymentService.charge");
  return {
    lines,
    asExpected: expected,
    data: { dir, variant, verdict: report.verdict, committed, risk: main?.risk, confidence: main?.confidence, report },
  };
}
