import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { GuardError } from "../../kernel/errors.ts";
import { EXIT } from "../../kernel/exit-codes.ts";
import { parse, requireLanguageForPath } from "../../code/parser.ts";
import { headSha } from "../../repo/git.ts";
import { whySettings } from "./assess.ts";
import { covers, isHumanConfirmed, loadDecisions } from "./decisions/load.ts";
import { introducingCommit, searchFragment } from "./evidence/history.ts";
import { requiredTestStatus, type RequiredTest } from "./evidence/tests.ts";
import { factsOf } from "./syntax/facts.ts";
import { nestedScopeNodes, scopesOf } from "./syntax/scopes.ts";
import { reader } from "./trees.ts";

export interface TracedFact {
  type: string;
  line: number;
  code: string;
  introducedBy?: { sha: string; date: string; subject: string; closes: string[]; refs: string[]; pr?: string };
  commits: number;
}

export interface Trace {
  file: string;
  symbol: string;
  startLine: number;
  endLine: number;
  facts: TracedFact[];
  decisions: { id: string; status: string; source: string; reason: string; must_preserve: string[]; humanConfirmed: boolean }[];
  requiredTests: RequiredTest[];
}

/** What is known about a symbol before editing it: its protective code, where each piece came from, what protects it. */
export async function traceSymbol(root: string, file: string, symbol: string): Promise<Trace> {
  const abs = join(root, file);
  if (!existsSync(abs)) throw new GuardError(`cannot trace ${file}`, "no such file", "give a path relative to the repository root", EXIT.USAGE, "E_NO_FILE");
  const lang = requireLanguageForPath(file);
  const tree = await parse(lang, readFileSync(abs, "utf8"));
  try {
    const scopes = scopesOf(lang, tree, file);
    const scope = scopes.find((s) => s.qualname === symbol) ?? scopes.find((s) => s.name === symbol);
    if (!scope) {
      const known = scopes.filter((s) => s.kind !== "module").map((s) => s.qualname).slice(0, 8).join(", ");
      throw new GuardError(`no symbol ${symbol} in ${file}`, known ? `it defines ${known}` : "it defines no functions", "use file:Qualified.name", EXIT.USAGE, "E_NO_SYMBOL");
    }
    const settings = whySettings(root);
    const rev = headSha(root) ?? "HEAD";
    const facts: TracedFact[] = [];
    // Module-level timeouts and retry counts the function reads are part of what protects it.
    const module = scopes.find((s) => s.kind === "module")!;
    const readsName = (name: string) => new RegExp(`(^|[^\\w$])${name.replace(/\$/g, "\\$")}($|[^\\w$])`).test(scope.node.text);
    const moduleValues = scope.kind === "module" ? [] : factsOf(module, nestedScopeNodes(module, scopes)).filter((f) => f.type === "number" && readsName(f.name));
    for (const f of [...moduleValues, ...factsOf(scope, nestedScopeNodes(scope, scopes))]) {
      if (f.type === "comparison") continue;
      const intro = headSha(root) ? introducingCommit(root, searchFragment(f.text), rev, file) : { touching: [], commit: undefined };
      const c = intro.commit;
      facts.push({
        type: f.type,
        line: f.line,
        code: searchFragment(f.text),
        introducedBy: c ? { sha: c.sha, date: c.date, subject: c.subject, closes: c.refs.closes, refs: c.refs.refs, pr: c.refs.pr } : undefined,
        commits: intro.touching.length,
      });
    }
    const work = reader(root, { kind: "worktree" });
    const decisions = loadDecisions(work, settings.decisionsDir).filter((d) => covers(d, file, scope.qualname));
    const requiredTests: RequiredTest[] = [];
    for (const d of decisions) for (const t of d.required_tests) requiredTests.push(await requiredTestStatus(t, work, () => []));
    return {
      file,
      symbol: scope.qualname,
      startLine: scope.startLine,
      endLine: scope.endLine,
      facts,
      decisions: decisions.map((d) => ({ id: d.id, status: d.expired ? "expired" : d.status, source: d.source, reason: d.reason, must_preserve: d.must_preserve, humanConfirmed: isHumanConfirmed(d) })),
      requiredTests,
    };
  } finally {
    tree.delete();
  }
}
