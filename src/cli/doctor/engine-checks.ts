import { describeError } from "../../kernel/errors.ts";
import { TAIL_REWRITE_BYTES, compactLog, logTailBytes } from "../../graph/engine/aof.ts";
import { enginePaths } from "../../graph/engine/paths.ts";
import { guardHome } from "../../state/paths.ts";
import { describeTarget, type Graph } from "../../graph/client.ts";
import { graphName } from "../../graph/name.ts";
import type { DoctorCheck } from "./check.ts";

export const engineReachable: DoctorCheck = {
  id: "engine.reachable",
  section: "engine",
  title: "graph engine",
  async run(ctx) {
    try {
      const { client, handle } = await ctx.engine();
      const info = await client.info();
      const details: Record<string, unknown> = {
        backend: handle.backend,
        target: describeTarget(handle.target),
        server: `${info.server} ${info.serverVersion}`,
        module: info.module ? `${info.module.name} ${info.module.version}` : "not loaded",
      };
      if (handle.server) details.build = `${handle.server.build.source}: ${handle.server.build.server}`;
      if (!info.module)
        return { status: "fail", summary: `reachable (${handle.backend}) but the FalkorDB module is not loaded`, details, todo: "point guard at a FalkorDB server" };
      return { status: "ok", summary: `${handle.backend}, ${info.server} ${info.serverVersion}, FalkorDB ${info.module.version}`, details };
    } catch (e) {
      return { status: "fail", summary: `${ctx.settings.backend} engine unavailable: ${describeError(e)}`, details: { backend: ctx.settings.backend } };
    }
  },
};

export const graphPresent: DoctorCheck = {
  id: "graph.present",
  section: "graph",
  title: "repository graph",
  async run(ctx) {
    if (!ctx.root) return { status: "info", summary: "not in a git repository" };
    let engine;
    try {
      engine = await ctx.engine();
    } catch {
      return { status: "fail", summary: "cannot check: the engine is unavailable" };
    }
    const graph = engine.client.graph(graphName(ctx.root));
    let fixed = false;
    if (!(await graph.exists())) {
      if (!ctx.fix) return { status: "warn", summary: `graph ${graph.name} does not exist yet`, todo: "run `guard init` (or `guard doctor --fix`)", details: { graph: graph.name } };
      await graph.query("RETURN 1");
      fixed = true;
    }
    const counts = await graph.counts();
    const n = Object.values(counts.nodes).reduce((a, b) => a + b, 0);
    const e = Object.values(counts.edges).reduce((a, b) => a + b, 0);
    const details = { graph: graph.name, nodes: counts.nodes, edges: counts.edges };
    let behind = await behindHead(ctx.root, graph);
    if (behind && ctx.fix) {
      const { indexRepository } = await import("../../graph/indexer.ts");
      await indexRepository(ctx.root, graph);
      behind = await behindHead(ctx.root, graph);
      fixed = behind === undefined;
    }
    if (behind)
      return { status: "warn", summary: `${graph.name} is behind HEAD: ${behind}`, todo: "the next `guard check` or `guard run` brings it up to date; or run `guard index` now", details, fixed };
    const { readIndexState } = await import("../../graph/index-state.ts");
    const current = readIndexState(ctx.root) ? ", current with HEAD" : "";
    return { status: "ok", summary: `${graph.name}: ${n} nodes, ${e} edges${current}`, details, fixed };
  },
};

const mb = (n: number) => `${(n / 1048576).toFixed(1)} MB`;

/** The embedded server's write log: a long tail makes its next start replay queries one by one (aof.ts). */
export const engineLog: DoctorCheck = {
  id: "engine.log",
  section: "engine",
  title: "engine write log",
  async run(ctx) {
    if (ctx.settings.backend !== "embedded") return { status: "info", summary: `not guard's to keep (${ctx.settings.backend} engine)` };
    const paths = enginePaths(guardHome());
    const tail = logTailBytes(paths.data);
    const details = { tail: mb(tail), foldedAt: mb(TAIL_REWRITE_BYTES), dir: paths.data };
    if (tail <= 8 * TAIL_REWRITE_BYTES) return { status: "ok", summary: `${mb(tail)} since the last snapshot (folded at ${mb(TAIL_REWRITE_BYTES)})`, details };
    if (ctx.fix) {
      try {
        const { handle } = await ctx.engine();
        if (handle.server && (await compactLog(handle.server.socket, paths.data, { minBytes: 0, waitMs: 120_000 })))
          return { status: "ok", summary: `folded ${mb(tail)} of log into a snapshot`, details: { ...details, tail: mb(logTailBytes(paths.data)) }, fixed: true };
      } catch {}
    }
    return { status: "warn", summary: `${mb(tail)} of log since the last snapshot: the next start replays it query by query`, details, todo: "run `guard doctor --fix` to fold it into a snapshot now" };
  },
};

/** How the graph's files differ from HEAD's tree, in one phrase; undefined when it holds HEAD's (or was never indexed). */
async function behindHead(root: string, graph: Graph): Promise<string | undefined> {
  const { readIndexState } = await import("../../graph/index-state.ts");
  const { stalenessVsHead } = await import("../../graph/staleness.ts");
  const state = readIndexState(root);
  if (!state) return undefined;
  const s = await stalenessVsHead(root, graph, state.head);
  const files = s.changed + s.missing + s.extra;
  // A commit that touched no source file leaves the graph's content current.
  if (files === 0) return undefined;
  return `${files} file(s) differ (${s.examples.join(", ")})`;
}
