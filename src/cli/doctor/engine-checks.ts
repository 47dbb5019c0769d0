import { describeError } from "../errors.ts";
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
