import type { CommandSpec, Options } from "../command.ts";
import { GuardError } from "../../kernel/errors.ts";
import { EXIT } from "../../kernel/exit-codes.ts";

const list = (v: unknown): string[] => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).map(String));
const usage = (what: string, todo: string) => new GuardError(what, undefined, todo, EXIT.USAGE, "E_USAGE");

function splitTarget(target: string | undefined, action: string): { file: string; symbol?: string } {
  if (!target) throw usage(`guard why ${action} needs <file>:<symbol>`, "e.g. `guard why trace src/pay.ts:PaymentService.charge`");
  const i = target.lastIndexOf(":");
  if (i <= 0) return { file: target };
  return { file: target.slice(0, i), symbol: target.slice(i + 1) || undefined };
}

export const why: CommandSpec = {
  name: "why <action> [target]",
  summary: "Does history say this code exists for a reason? trace | scan | verify | decide | import-whyguard",
  options: [
    { flags: "--base <ref>", description: "scan: the base commit (history is searched up to it)" },
    { flags: "--head <ref>", description: "scan: the head commit", default: "HEAD" },
    { flags: "--scope <scope>", description: "verify: staged | working-tree", default: "staged" },
    { flags: "--reason <text>", description: "decide: why the code must stay (one sentence, with the issue)" },
    { flags: "--id <id>", description: "decide: the decision id (default: from the file name, e.g. charge-001)" },
    { flags: "--must-preserve <what>", description: "decide: a finding kind or a code fragment that must stay (repeatable)" },
    { flags: "--test <spec>", description: "decide: a required regression test, path::name (repeatable)" },
    { flags: "--owner <owner>", description: "decide: who owns the decision (repeatable)" },
    { flags: "--evidence <ref>", description: "decide: extra evidence, #issue / sha / URL (repeatable)" },
    { flags: "--expires <when>", description: "decide: an ISO date or condition after which it no longer applies (repeatable)" },
    { flags: "--draft", description: "decide: record a draft (warns, never blocks) instead of an active decision" },
    { flags: "--confirm <id>", description: "decide: make an existing (draft) decision active" },
    { flags: "--json", description: "print the result as JSON" },
  ],
  examples: [
    "guard why trace src/payments/charge.ts:PaymentService.charge",
    "guard why scan --base origin/main --head HEAD --json",
    "guard why verify --scope staged",
    'guard why decide src/payments/charge.ts:PaymentService.charge --reason "retried checkouts charged twice (#42)" --test "test/payments.test.ts::charges once per key"',
    "guard why decide --confirm charge-001",
    "guard why import-whyguard",
  ],
  async action(args, options: Options) {
    const [action, target] = args;
    const { requireRepoRoot } = await import("../../repo/git.ts");
    const root = requireRepoRoot(typeof options.cwd === "string" ? options.cwd : process.cwd());
    const { envelope, printJson } = await import("../../kernel/envelope.ts");
    const json = options.json === true;

    if (action === "trace") {
      const { file, symbol } = splitTarget(target, "trace");
      if (!symbol) throw usage("guard why trace needs <file>:<symbol>", `e.g. \`guard why trace ${file}:myFunction\``);
      const { traceSymbol } = await import("../../decide/why/trace.ts");
      const t = await traceSymbol(root, file, symbol);
      if (json) printJson(envelope("why.trace", t));
      else process.stdout.write((await import("../../report/why.ts")).formatTrace(t));
      return EXIT.OK;
    }

    if (action === "scan" || action === "verify") {
      const idx = await import("../../decide/why/index.ts");
      let report;
      let title: string;
      if (action === "scan") {
        if (typeof options.base !== "string") throw usage("guard why scan needs --base <ref>", "e.g. `guard why scan --base origin/main --head HEAD`");
        const head = String(options.head ?? "HEAD");
        const { gitRaw } = await import("../../repo/git.ts");
        for (const ref of [options.base, head])
          if (gitRaw(["rev-parse", "-q", "--verify", `${ref}^{commit}`], root).code !== 0)
            throw new GuardError(`unknown revision: ${ref}`, undefined, "give a branch, tag or commit", EXIT.USAGE, "E_USAGE");
        report = await idx.scanWhy(root, options.base, head);
        title = `scan ${options.base}..${head}`;
      } else {
        const scope = String(options.scope ?? "staged");
        if (scope !== "staged" && scope !== "working-tree") throw usage(`unknown --scope ${scope}`, "use --scope staged or --scope working-tree");
        report = await idx.verifyWhy(root, { scope });
        title = `verify (${scope})`;
      }
      if (json) printJson({ ...envelope(`why.${action}`, report, report.verdict !== "block") });
      else process.stdout.write((await import("../../report/why.ts")).formatWhyReport(report, title));
      return idx.verdictExit(report.verdict);
    }

    if (action === "decide" || action === "import-whyguard") {
      const { agentContext } = await import("../../decide/why/decisions/human.ts");
      const refused = agentContext(process.env, process.stdin.isTTY === true);
      if (refused)
        throw new GuardError(`guard why ${action} refuses to run here`, refused, "only a human records reasons: run it yourself in a terminal", EXIT.BLOCKED, "E_WHY_NOT_HUMAN");
    }
    if (action === "import-whyguard") {
      const { whySettings } = await import("../../decide/why/assess.ts");
      const { importWhyguard } = await import("../../decide/why/decisions/import-whyguard.ts");
      const r = importWhyguard(root, whySettings(root).decisionsDir);
      if (json) printJson(envelope("why.import-whyguard", r, r.skipped.length === 0));
      else process.stdout.write((await import("../../report/why.ts")).formatImport(r));
      return r.imported.length === 0 && r.skipped.length > 0 ? EXIT.ERROR : EXIT.OK;
    }
    if (action === "decide") {
      const { whySettings } = await import("../../decide/why/assess.ts");
      const dir = whySettings(root).decisionsDir;
      const write = await import("../../decide/why/decisions/write.ts");
      let result;
      if (typeof options.confirm === "string") result = write.confirmDecision(root, options.confirm, dir);
      else {
        const { file, symbol } = splitTarget(target, "decide");
        if (typeof options.reason !== "string" || options.reason.trim() === "") throw usage("guard why decide needs --reason", 'e.g. --reason "retried checkouts charged twice (#42)"');
        const evidence = list(options.evidence);
        if (symbol) {
          const { traceSymbol } = await import("../../decide/why/trace.ts");
          const t = await traceSymbol(root, file, symbol);
          for (const f of t.facts) {
            if (!f.introducedBy) continue;
            for (const r of [f.introducedBy.sha.slice(0, 12), ...f.introducedBy.closes, ...f.introducedBy.refs]) if (!evidence.includes(r)) evidence.push(r);
          }
        }
        result = write.createDecision(
          root,
          {
            file,
            symbol,
            // A decision file is committed: a credential pasted into --reason is stored redacted.
            reason: (await import("../../decide/leak/scan.ts")).redactForLog(options.reason.trim()),
            id: typeof options.id === "string" ? options.id : undefined,
            mustPreserve: list(options.mustPreserve),
            requiredTests: list(options.test),
            evidence,
            owners: list(options.owner),
            expiresWhen: list(options.expires),
            draft: options.draft === true,
          },
          dir,
        );
      }
      if (json) printJson(envelope("why.decide", result));
      else process.stdout.write(`${result.path}: decision ${result.decision.id} v${result.decision.version} [${result.decision.status}]; commit it so guard (and reviewers) read it\n`);
      return EXIT.OK;
    }

    throw usage(`unknown why action: ${action}`, "use trace, scan, verify, decide or import-whyguard (see `guard why --help`)");
  },
};
