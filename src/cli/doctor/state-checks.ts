import { ensureStateDir, stateDir, stateDirExcluded } from "../../state/paths.ts";
import { existsSync } from "node:fs";
import type { DoctorCheck } from "./check.ts";

export const stateExcluded: DoctorCheck = {
  id: "state.excluded",
  section: "state",
  title: ".guard/ kept out of git",
  async run(ctx) {
    if (!ctx.root) return { status: "info", summary: "not in a git repository" };
    const dir = stateDir(ctx.root);
    if (existsSync(dir) && stateDirExcluded(ctx.root)) return { status: "ok", summary: `${dir} exists and is excluded through .git/info/exclude` };
    if (ctx.fix) {
      ensureStateDir(ctx.root);
      if (stateDirExcluded(ctx.root)) return { status: "ok", summary: `${dir} created and excluded`, fixed: true };
    }
    return {
      status: "warn",
      summary: existsSync(dir) ? `${dir} is not excluded from git` : `${dir} does not exist`,
      todo: "run `guard init` (or `guard doctor --fix`)",
    };
  },
};

export const hostIntegrations: DoctorCheck = {
  id: "integrations.hosts",
  section: "integrations",
  title: "agent hosts",
  async run(ctx) {
    if (!ctx.root) return { status: "info", summary: "not in a repository" };
    const { doctorHostChecks } = await import("../../hosts/status.ts");
    const hosts = doctorHostChecks(ctx.root);
    if (hosts.length === 0)
      return { status: "info", summary: "no agent host detected or installed here", todo: "guard hook install --host <id> (see guard hook status)" };
    const worst = hosts.some((h) => h.status === "warn") ? "warn" : "ok";
    return {
      status: worst,
      summary: hosts.map((h) => `${h.title}: ${h.status}`).join(", "),
      details: Object.fromEntries(hosts.map((h) => [h.title, h.detail])),
      todo: worst === "warn" ? "see the details; `guard hook install --detected` installs what is missing" : undefined,
    };
  },
};
