import { GuardError } from "../../kernel/errors.ts";
import { EXIT } from "../../kernel/exit-codes.ts";
import type { EngineTarget } from "../client.ts";

/**
 * The docker backend: one `guard-falkordb` container publishing FalkorDB on 127.0.0.1:6390, its data
 * in the named volume `guard-falkordb-data`. The image caps queries at TIMEOUT 1000 ms and results at
 * RESULTSET_SIZE 10000 rows by default; FALKORDB_ARGS lifts both (guard sets its own per-query timeouts).
 */
export const DOCKER = {
  container: "guard-falkordb",
  port: 6390,
  volume: "guard-falkordb-data",
  dataDir: "/var/lib/falkordb/data",
  falkordbArgs: "TIMEOUT 0 RESULTSET_SIZE -1",
} as const;

export const dockerTarget: EngineTarget = { kind: "tcp", host: "127.0.0.1", port: DOCKER.port };

export interface DockerResult {
  code: number;
  stdout: string;
  stderr: string;
}

export type DockerRunner = (args: string[]) => DockerResult;

export const runDocker: DockerRunner = (args) => {
  try {
    const r = Bun.spawnSync(["docker", ...args], { stdout: "pipe", stderr: "pipe" });
    return { code: r.exitCode ?? 1, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
  } catch (e) {
    return { code: 127, stdout: "", stderr: e instanceof Error ? e.message : String(e) };
  }
};

export function dockerRunArgs(image: string): string[] {
  return [
    "run", "-d",
    "--name", DOCKER.container,
    "--restart", "unless-stopped",
    "-p", `127.0.0.1:${DOCKER.port}:6379`,
    "-v", `${DOCKER.volume}:${DOCKER.dataDir}`,
    "-e", `FALKORDB_ARGS=${DOCKER.falkordbArgs}`,
    image,
  ];
}

function fail(what: string, r: DockerResult): GuardError {
  const why = (r.stderr || r.stdout).trim().split("\n")[0] || `exit ${r.code}`;
  const todo = r.code === 127 ? "install Docker, or use `guard init --backend server --url redis://host:6379`" : "check `docker ps -a` and `docker logs guard-falkordb`";
  return new GuardError(what, why, todo, r.code === 127 ? EXIT.UNAVAILABLE : EXIT.ERROR, "E_ENGINE_DOCKER");
}

/** "running", "stopped" or "absent". */
export function dockerState(docker: DockerRunner = runDocker): "running" | "stopped" | "absent" {
  const r = docker(["container", "inspect", "--format", "{{.State.Running}}", DOCKER.container]);
  if (r.code === 127) throw fail("cannot run docker", r);
  if (r.code !== 0) return "absent";
  return r.stdout.trim() === "true" ? "running" : "stopped";
}

/** Create or start the container; returns what it did. */
export function ensureDocker(image: string, docker: DockerRunner = runDocker): "running" | "started" | "created" {
  const state = dockerState(docker);
  if (state === "running") return "running";
  if (state === "stopped") {
    const r = docker(["start", DOCKER.container]);
    if (r.code !== 0) throw fail(`cannot start the ${DOCKER.container} container`, r);
    return "started";
  }
  const r = docker(dockerRunArgs(image));
  if (r.code !== 0) throw fail(`cannot create the ${DOCKER.container} container`, r);
  return "created";
}

export function stopDocker(docker: DockerRunner = runDocker): boolean {
  if (dockerState(docker) !== "running") return false;
  const r = docker(["stop", DOCKER.container]);
  if (r.code !== 0) throw fail(`cannot stop the ${DOCKER.container} container`, r);
  return true;
}
