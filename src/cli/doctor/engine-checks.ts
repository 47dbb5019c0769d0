import { describeError } from "../errors.ts";
import { TAIL_REWRITE_BYTES, compactLog, logTailBytes } from "../../graph/engine/aof.ts";
import { enginePaths } from "../../graph/engine/paths.ts";
import { guardHome } from "../../state/paths.ts";
import { describeTarget } from "../../graph/client.ts";
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
    return { status: "ok", summary: `${graph.name}: ${n} nodes, ${e} edges`, details: { graph: graph.name, nodes: counts.nodes, edges: counts.edges }, fixed };
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
