import { DEFAULTS, loadConfig, type Backend } from "../../state/config.ts";
import { GraphClient, type EngineTarget } from "../client.ts";
import { dockerState, dockerTarget, ensureDocker, runDocker, stopDocker, type DockerRunner } from "./docker.ts";
import { embeddedStatus, ensureEmbedded, stopEmbedded, type EmbeddedOptions, type ServerState } from "./embedded.ts";
import { parseServerUrl } from "./server-url.ts";

/**
 * One entry point over the three backends. Settings come from DEFAULTS.engine, then the repository's
 * config (guard.json / .guard/config.json `engine`), then GUARD_ENGINE_BACKEND / GUARD_ENGINE_URL /
 * GUARD_ENGINE_PASSWORD, then command-line overrides.
 */
export interface EngineSettings {
  backend: Backend;
  url: string;
  password?: string;
  tls?: boolean;
  idleTimeoutSeconds: number;
  queryTimeoutMs: number;
  /** How long test selection waits for a running engine (or a server) to answer before it runs everything. */
  connectTimeoutMs: number;
  dockerImage: string;
}

export interface EngineHandle {
  backend: Backend;
  target: EngineTarget;
  /** The embedded server's record. */
  server?: ServerState;
  /** What the docker backend did: running / started / created. */
  docker?: string;
  /** This call started the engine (embedded server or container). */
  started: boolean;
}

export interface EngineDeps {
  embedded?: EmbeddedOptions;
  docker?: DockerRunner;
  /** How long a docker or server engine may take to answer (ms). */
  readyTimeoutMs?: number;
}

const BACKENDS: Backend[] = ["embedded", "server", "docker"];

export function engineSettings(root?: string, overrides: Partial<EngineSettings> = {}): EngineSettings {
  const fromConfig = root ? (loadConfig(root).engine ?? {}) : {};
  const env = process.env;
  const fromEnv: Partial<EngineSettings> = {};
  if (env.GUARD_ENGINE_BACKEND && (BACKENDS as string[]).includes(env.GUARD_ENGINE_BACKEND)) fromEnv.backend = env.GUARD_ENGINE_BACKEND as Backend;
  if (env.GUARD_ENGINE_URL) fromEnv.url = env.GUARD_ENGINE_URL;
  if (env.GUARD_ENGINE_PASSWORD) fromEnv.password = env.GUARD_ENGINE_PASSWORD;
  const defined = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
  return { ...DEFAULTS.engine, ...defined(fromConfig), ...defined(fromEnv), ...defined(overrides) } as EngineSettings;
}

export function targetFor(settings: EngineSettings): EngineTarget | undefined {
  if (settings.backend === "server") return parseServerUrl(settings.url, { password: settings.password, tls: settings.tls });
  if (settings.backend === "docker") return dockerTarget;
  return undefined;
}

/** Make sure the engine runs (start the embedded server or the container if need be). */
export async function ensureEngine(settings: EngineSettings, deps: EngineDeps = {}): Promise<EngineHandle> {
  if (settings.backend === "embedded") {
    const { started, ...server } = await ensureEmbedded({ idleTimeoutSeconds: settings.idleTimeoutSeconds, ...deps.embedded });
    return { backend: "embedded", target: { kind: "socket", path: server.socket }, server, started: Boolean(started) };
  }
  if (settings.backend === "docker") {
    const docker = ensureDocker(settings.dockerImage, deps.docker ?? runDocker);
    return { backend: "docker", target: dockerTarget, docker, started: docker !== "running" };
  }
  return { backend: "server", target: targetFor(settings) as EngineTarget, started: false };
}

/** Start if need be and connect; waits up to readyTimeoutMs for a container that is still booting. */
export async function connectEngine(settings: EngineSettings, deps: EngineDeps = {}): Promise<{ client: GraphClient; handle: EngineHandle }> {
  const handle = await ensureEngine(settings, deps);
  const opts = { queryTimeoutMs: settings.queryTimeoutMs };
  if (handle.backend !== "docker" || handle.docker === "running") return { client: await GraphClient.connect(handle.target, opts), handle };
  const envWait = Number(process.env.GUARD_ENGINE_READY_TIMEOUT_MS);
  const deadline = Date.now() + (deps.readyTimeoutMs ?? (Number.isFinite(envWait) && envWait > 0 ? envWait : 30000));
  for (;;) {
    try {
      return { client: await GraphClient.connect(handle.target, { ...opts, connectTimeoutMs: 1000 }), handle };
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await Bun.sleep(250);
    }
  }
}

export async function stopEngine(settings: EngineSettings, deps: EngineDeps = {}): Promise<boolean> {
  if (settings.backend === "embedded") return stopEmbedded(deps.embedded?.home);
  if (settings.backend === "docker") return stopDocker(deps.docker ?? runDocker);
  return false; // a server guard does not manage is never stopped by guard
}

export interface EngineStatusReport {
  backend: Backend;
  running: boolean;
  target?: string;
  server?: ServerState;
  stale?: boolean;
  /** Embedded: alive, still loading its data. */
  loading?: boolean;
  docker?: string;
}

export async function engineStatus(settings: EngineSettings, deps: EngineDeps = {}): Promise<EngineStatusReport> {
  if (settings.backend === "embedded") {
    const s = await embeddedStatus(deps.embedded?.home);
    return { backend: "embedded", running: s.running, target: s.state ? `unix:${s.state.socket}` : `unix:${s.paths.socket}`, server: s.state, stale: s.stale, ...(s.loading ? { loading: true } : {}) };
  }
  const target = targetFor(settings) as EngineTarget;
  const shown = target.kind === "tcp" ? `${target.tls ? "rediss" : "redis"}://${target.host}:${target.port}` : target.path;
  let docker: string | undefined;
  if (settings.backend === "docker") {
    docker = dockerState(deps.docker ?? runDocker);
    if (docker !== "running") return { backend: "docker", running: false, target: shown, docker };
  }
  let running = false;
  try {
    const c = await GraphClient.connect(target, { connectTimeoutMs: 2000 });
    running = await c.ping();
    await c.close();
  } catch {}
  return { backend: settings.backend, running, target: shown, docker };
}
