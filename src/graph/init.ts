import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULTS, validateConfig, type Backend } from "../state/config.ts";
import { ensureStateDir, stateDirExcluded } from "../state/paths.ts";
import { describeTarget } from "./client.ts";
import { connectEngine, engineSettings, type EngineDeps } from "./engine/index.ts";
import { parseServerUrl } from "./engine/server-url.ts";
import { graphName } from "./name.ts";

/**
 * `guard init`: the state directory (kept out of git), the engine started and the graph
 * created, then the engine choice written to .guard/config.json (only when it is not the default, and only
 * once that engine answered).
 */
export interface InitRequest {
  root: string;
  backend?: Backend;
  url?: string;
  tls?: boolean;
}

export interface InitReport {
  root: string;
  stateDir: string;
  excluded: boolean;
  /** The config file written, when one was. */
  configWritten?: string;
  backend: Backend;
  target: string;
  graph: string;
  graphCreated: boolean;
  server: string;
  module: string;
  /** A password in --url is used now but never stored. */
  passwordNotStored: boolean;
}

export async function initRepository(req: InitRequest, deps: EngineDeps = {}): Promise<InitReport> {
  const dir = ensureStateDir(req.root);
  const chosen = req.backend ?? (req.url ? "server" : undefined);
  if (req.url) parseServerUrl(req.url); // a bad URL fails before anything else happens
  // The settings for this run keep the URL's password; the stored config does not.
  const settings = engineSettings(req.root, { ...(req.url ? { url: req.url } : {}), ...(chosen ? { backend: chosen } : {}), ...(req.tls ? { tls: true } : {}) });
  const { client, handle } = await connectEngine(settings, deps);
  try {
    const graph = client.graph(graphName(req.root));
    const existed = await graph.exists();
    if (!existed) await graph.query("RETURN 1"); // creates the graph key
    const info = await client.info();
    let configWritten: string | undefined;
    let passwordNotStored = false;
    const configPath = join(dir, "config.json");
    if (chosen && (chosen !== DEFAULTS.engine.backend || existsSync(configPath))) {
      const prev = existsSync(configPath) ? (JSON.parse(readFileSync(configPath, "utf8")) as Record<string, unknown>) : {};
      const engine: Record<string, unknown> = { ...((prev.engine as Record<string, unknown>) ?? {}), backend: chosen };
      if (req.url) {
        const t = parseServerUrl(req.url);
        passwordNotStored = t.kind === "tcp" && t.password !== undefined;
        const u = new URL(req.url.includes("://") ? req.url : `redis://${req.url}`);
        u.password = "";
        u.username = "";
        engine.url = u.toString().replace(/\/$/, "");
      }
      if (req.tls) engine.tls = true;
      const next = { ...prev, engine };
      validateConfig(".guard/config.json", next);
      writeFileSync(`${configPath}.tmp`, `${JSON.stringify(next, null, 2)}\n`);
      renameSync(`${configPath}.tmp`, configPath);
      configWritten = configPath;
    }
    return {
      root: req.root,
      stateDir: dir,
      excluded: stateDirExcluded(req.root),
      configWritten,
      backend: handle.backend,
      target: describeTarget(handle.target),
      graph: graph.name,
      graphCreated: !existed,
      server: `${info.server} ${info.serverVersion}`,
      module: info.module ? `${info.module.name} ${info.module.version}` : "not loaded",
      passwordNotStored,
    };
  } finally {
    await client.close();
  }
}
