import { detectEcosystems } from "../../graph/evidence/detect.ts";
import { evidenceDoctorCheck } from "../../graph/evidence/doctor.ts";
import { graphName } from "../../graph/name.ts";
import type { DoctorCheck } from "./check.ts";

/** Per-test coverage evidence: how many edges, over how many tests, recorded how many commits ago. */
export const evidencePresent: DoctorCheck = {
  id: "evidence.coverage",
  section: "evidence",
  title: "per-test evidence",
  async run(ctx) {
    if (!ctx.root) return { status: "info", summary: "not in a git repository" };
    const suites = detectEcosystems(ctx.root);
    if (suites.length === 0) return { status: "info", summary: "no test suite found (pytest, vitest, jest, node:test, go test)" };
    let engine;
    try {
      engine = await ctx.engine();
    } catch {
      return { status: "fail", summary: "cannot check: the engine is unavailable" };
    }
    const graph = engine.client.graph(graphName(ctx.root));
    if (!(await graph.exists())) return { status: "warn", summary: "no graph yet, so no evidence: test selection runs the full suite", todo: "run `guard init`" };
    const { status, detail, todo, edges, tests, recordedSha, commitsBehind } = await evidenceDoctorCheck(ctx.root, graph);
    return { status, summary: detail, todo, details: { suites: suites.join(", "), edges, tests, recordedSha, commitsBehind } };
  },
};
