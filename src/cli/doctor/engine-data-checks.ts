import { isGuardError, describeError } from "../../kernel/errors.ts";
import { enginePaths } from "../../graph/engine/paths.ts";
import { guardHome } from "../../state/paths.ts";
import { graphName } from "../../graph/name.ts";
import type { CheckResult, DoctorCheck, DoctorContext } from "./check.ts";

/** The embedded engine's checks have nothing to say of a server or container guard does not run. */
const notEmbedded = (ctx: DoctorContext): CheckResult | undefined =>
  ctx.settings.backend === "embedded" ? undefined : { status: "info", summary: `not guard's to run (${ctx.settings.backend} engine)` };

/** More than one server on one GUARD_HOME's data (left by older versions): they write over each other. */
export const engineServers: DoctorCheck = {
  id: "engine.servers",
  section: "engine",
  title: "engine servers",
  async run(ctx) {
    const skip = notEmbedded(ctx);
    if (skip) return skip;
    const { allServers } = await import("../../graph/engine/embedded.ts");
    const pids = allServers(guardHome());
    if (pids.length <= 1) return { status: "ok", summary: pids.length ? `one server for ${guardHome()} (pid ${pids[0]})` : "none running (the next guard call starts one)" };
    if (ctx.fix) {
      const { stopEmbeddedServers } = await import("../../graph/engine/embedded.ts");
      await stopEmbeddedServers();
      return { status: "ok", summary: `stopped ${pids.length} servers that shared one data folder; the next call starts one`, fixed: true };
    }
    return { status: "fail", summary: `${pids.length} servers share ${enginePaths().data} (pids ${pids.join(", ")})`, todo: "run `guard doctor --fix` or `guard engine stop` (both stop every one of them)" };
  },
};

/**
 * The engine's data loads. When it is damaged, --fix moves it aside (kept, never deleted), starts the
 * engine afresh and rebuilds this repository's graph from the repository (the parse cache in
 * .guard/index makes that quick). Evidence recorded before lived in that data: `guard evidence` records it again.
 */
export const engineData: DoctorCheck = {
  id: "engine.data",
  section: "engine",
  title: "engine data",
  async run(ctx) {
    const skip = notEmbedded(ctx);
    if (skip) return skip;
    try {
      await ctx.engine();
      return { status: "ok", summary: `loads (${enginePaths().data})` };
    } catch (e) {
      if (!isGuardError(e) || e.code !== "E_ENGINE_DATA") return { status: "info", summary: "not checked: the engine does not start (see below)" };
      if (!ctx.fix) return { status: "fail", summary: `damaged: ${e.why ?? describeError(e)}`, todo: "run `guard doctor --fix`: it moves the damaged data aside (kept), starts afresh and rebuilds this repository's graph" };
    }
    const { dropSalvagedData, moveDamagedData, salvageData } = await import("../../graph/engine/repair.ts");
    const aside = await moveDamagedData();
    let salvaged = aside !== undefined && (await salvageData(aside));
    ctx.resetEngine();
    let client;
    try {
      client = (await ctx.engine()).client;
    } catch (e) {
      if (!salvaged || !isGuardError(e) || e.code !== "E_ENGINE_DATA") throw e;
      await dropSalvagedData();
      salvaged = false;
      ctx.resetEngine();
      client = (await ctx.engine()).client;
    }
    const details: Record<string, unknown> = { movedTo: aside ?? "(nothing to move)", salvaged: salvaged ? "the write log, cut back to its last whole command" : "nothing (started empty)" };
    if (ctx.root) {
      const { indexRepository } = await import("../../graph/indexer.ts");
      const report = await indexRepository(ctx.root, client.graph(graphName(ctx.root)), { full: true });
      details.reindexed = `${ctx.root} (${report.files} files)`;
    }
    return {
      status: "warn",
      summary: `the damaged data was moved to ${aside}; the engine started ${salvaged ? "on what could be salvaged from a copy of it" : "afresh"}${ctx.root ? "; this repository's graph was rebuilt" : ""}`,
      details,
      todo: salvaged
        ? "evidence written after the damage is lost: run `guard evidence` to record it again"
        : "evidence recorded before was in the damaged data: run `guard evidence` to record it again (other repositories: `guard index` in each)",
      fixed: true,
    };
  },
};
