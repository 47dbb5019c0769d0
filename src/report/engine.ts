import type { EngineStatusReport } from "../graph/engine/index.ts";
import type { EnginePathReport } from "../graph/engine/embedded.ts";
import type { EngineBuild } from "../graph/engine/provision.ts";
import { envelope, type Envelope } from "../kernel/envelope.ts";

export interface EngineActionReport {
  action: "start" | "stop" | "status";
  status: EngineStatusReport;
  /** start: whether this call started it; stop: whether something was running. */
  changed: boolean;
}

export const engineEnvelope = (r: EngineActionReport): Envelope<EngineActionReport> => envelope(`engine.${r.action}`, r, r.action === "stop" || r.status.running);

function describeBuild(b: EngineBuild): string {
  const from = b.from && b.from.server !== "" ? `, from ${b.from.source}: ${b.from.server}` : "";
  return `${b.serverKind} ${b.serverVersion ?? "?"} + FalkorDB module (${b.source}: ${b.server}${from})`;
}

/** One or two lines, e.g. "engine running (embedded, unix:/home/u/.guard/engine/falkordb.sock, pid 123)". */
export function formatEngine(r: EngineActionReport): string {
  const s = r.status;
  const where = [s.backend, s.target, s.server && s.running ? `pid ${s.server.pid}` : undefined].filter(Boolean).join(", ");
  const lines: string[] = [];
  if (r.action === "stop" && s.backend === "server") lines.push(`guard does not stop a server it does not manage (${s.target})`);
  else if (r.action === "stop") lines.push(r.changed ? `engine stopped (${s.backend})` : `engine was not running (${s.backend})`);
  else if (r.action === "start") lines.push(`${r.changed ? "engine started" : "engine already running"} (${where})`);
  else if (s.loading) lines.push(`engine loading its data (${where}, pid ${s.server?.pid}); it answers once that is done`);
  else lines.push(`engine ${s.running ? "running" : s.stale ? "not running (its last server died; the next guard call starts a new one)" : "not running"} (${where})`);
  if (s.server && r.action !== "stop") lines.push(`  build: ${describeBuild(s.server.build)}`);
  if (s.docker && s.backend === "docker" && r.action !== "stop") lines.push(`  container guard-falkordb: ${s.docker}`);
  return `${lines.join("\n")}\n`;
}

export type { EnginePathReport } from "../graph/engine/embedded.ts";

export const enginePathEnvelope = (r: EnginePathReport): Envelope<EnginePathReport> => envelope("engine.path", r, r.build !== undefined);

export function formatEnginePath(r: EnginePathReport): string {
  const p = r.paths;
  const lines = [
    `server   ${r.build?.server ?? "(none usable here)"}`,
    `module   ${r.build?.module ?? "(none usable here)"}`,
    `source   ${r.build?.source ?? "-"}`,
    ...(r.build?.from ? [`from     ${r.build.from.source}: ${r.build.from.server === "" ? "an engine bundle" : r.build.from.server}`] : []),
    `socket   ${p.socket}`,
    `data     ${p.data}`,
    `log      ${p.log}`,
    `platform ${r.platform} (${r.libc})`,
  ];
  for (const x of r.rejected) lines.push(`skipped  ${x.source} ${x.path}: ${x.reason}`);
  return `${lines.join("\n")}\n`;
}
