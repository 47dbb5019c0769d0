import { homedir } from "node:os";
import { describeError } from "../../kernel/errors.ts";
import { initRepository, type InitReport } from "../../graph/init.ts";
import type { IndexReport } from "../../graph/indexer.ts";
import type { EvidenceReport } from "../../graph/evidence/record.ts";
import type { Backend } from "../../state/config.ts";
import type { ConfigChange } from "../../hosts/install/settings.ts";
import type { GitHookChange } from "../../hosts/install/git-hooks.ts";

/**
 * `guard init`, step by step: engine and state, the static graph, per-test evidence, then agent and git
 * hooks. A later step failing never undoes an earlier one; the report says what each step did, and
 * selection simply runs the whole suite until evidence exists.
 */
export interface InitFlowRequest {
  root: string;
  backend?: Backend;
  url?: string;
  tls?: boolean;
  skipIndex?: boolean;
  skipCoverage?: boolean;
  /** "ask": prompt on a terminal, suggest otherwise; "none"; "detected"; or host ids. */
  hooks: "ask" | "none" | "detected" | string[];
  gitHook?: boolean;
  /** Answers a yes/no question on a terminal; undefined when nobody can answer. */
  confirm?: (question: string) => boolean;
  onStep?: (step: string) => void;
}

export type StepOutcome<T> = { status: "done"; result: T } | { status: "skipped"; reason: string } | { status: "failed"; reason: string };

export interface InitFlowReport {
  engine: InitReport;
  index: StepOutcome<Pick<IndexReport, "files" | "functions" | "tests" | "edges" | "seconds" | "failures" | "skipped">>;
  evidence: StepOutcome<Pick<EvidenceReport, "ok" | "tests" | "withoutEvidence" | "durationMs" | "ecosystems" | "notes">>;
  hooks: { installed: ConfigChange[]; git?: GitHookChange; suggested: { id: string; name: string }[] };
  ok: boolean;
}

export async function runInit(req: InitFlowRequest): Promise<InitFlowReport> {
  req.onStep?.("engine and state");
  const engine = await initRepository({ root: req.root, backend: req.backend, url: req.url, tls: req.tls });
  const { openGraph } = await import("../../graph/open.ts");

  let index: InitFlowReport["index"] = { status: "skipped", reason: "--skip-index" };
  let evidence: InitFlowReport["evidence"] = { status: "skipped", reason: "--skip-coverage" };
  if (!req.skipIndex || !req.skipCoverage) {
    // The same engine initRepository just reached, --url's password included (it is never stored).
    const chosen = req.backend ?? (req.url ? "server" : undefined);
    const graph = await openGraph(req.root, { ...(chosen ? { backend: chosen } : {}), ...(req.url ? { url: req.url } : {}), ...(req.tls ? { tls: true } : {}) });
    try {
      if (!req.skipIndex) {
        req.onStep?.("index");
        index = await step(async () => {
          const { indexRepository } = await import("../../graph/indexer.ts");
          const r = await indexRepository(req.root, graph);
          return { files: r.files, functions: r.functions, tests: r.tests, edges: r.edges, seconds: r.seconds, failures: r.failures, skipped: r.skipped };
        });
      }
      if (!req.skipCoverage) {
        const { detectEcosystems } = await import("../../graph/evidence/detect.ts");
        if (index.status !== "done") evidence = { status: "skipped", reason: "evidence maps coverage onto the index, which is missing" };
        else if (detectEcosystems(req.root).length === 0) evidence = { status: "skipped", reason: "no test suite found (pytest, vitest, jest, node:test, go test)" };
        else {
          req.onStep?.("evidence (runs the test suite once with per-test coverage)");
          evidence = await step(async () => {
            const { recordEvidence } = await import("../../graph/evidence/record.ts");
            const r = await recordEvidence(req.root, { graph });
            return { ok: r.ok, tests: r.tests, withoutEvidence: r.withoutEvidence, durationMs: r.durationMs, ecosystems: r.ecosystems, notes: r.notes };
          });
        }
      }
    } finally {
      await graph.close();
    }
  }

  const hooks = await installHooks(req);
  const ok = index.status !== "failed" && evidence.status !== "failed" && (evidence.status !== "done" || evidence.result.ok);
  return { engine, index, evidence, hooks, ok };
}

async function step<T>(fn: () => Promise<T>): Promise<StepOutcome<T>> {
  try {
    return { status: "done", result: await fn() };
  } catch (e) {
    return { status: "failed", reason: describeError(e) };
  }
}

async function installHooks(req: InitFlowRequest): Promise<InitFlowReport["hooks"]> {
  const { HOSTS } = await import("../../hosts/registry.ts");
  const { hostStatus } = await import("../../hosts/status.ts");
  const { installHost } = await import("../../hosts/install/settings.ts");
  const home = homedir();
  const status = hostStatus(req.root, home);
  const candidates = status.filter((s) => s.detected.length > 0 && !s.installed);
  const out: InitFlowReport["hooks"] = { installed: [], suggested: [] };
  let chosen: string[] = [];
  if (Array.isArray(req.hooks)) chosen = req.hooks;
  else if (req.hooks === "detected") chosen = candidates.map((c) => c.id);
  else if (req.hooks === "ask") {
    for (const c of candidates) {
      if (req.confirm?.(`install guard's hooks for ${c.name} (found ${c.detected.join(", ")})?`)) chosen.push(c.id);
      else out.suggested.push({ id: c.id, name: c.name });
    }
  }
  for (const id of chosen) {
    const host = HOSTS.find((h) => h.id === id);
    if (host) out.installed.push(installHost(host, { root: req.root, home }));
  }
  if (req.gitHook) {
    const { installGitHook } = await import("../../hosts/install/git-hooks.ts");
    out.git = installGitHook(req.root);
  }
  return out;
}
