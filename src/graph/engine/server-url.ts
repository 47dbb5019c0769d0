import { GuardError } from "../../kernel/errors.ts";
import { EXIT } from "../../kernel/exit-codes.ts";
import type { EngineTarget } from "../client.ts";

/**
 * The server backend's target from `redis://[user:password@]host[:port]` or `rediss://…` (TLS).
 * A password or TLS flag given separately (config engine.password / engine.tls, GUARD_ENGINE_PASSWORD)
 * wins over the URL's.
 */
export function parseServerUrl(url: string, extra: { password?: string; tls?: boolean } = {}): EngineTarget {
  let u: URL;
  try {
    u = new URL(url.includes("://") ? url : `redis://${url}`);
  } catch {
    throw badUrl(url, "not a URL");
  }
  if (u.protocol !== "redis:" && u.protocol !== "rediss:") throw badUrl(url, `scheme ${u.protocol.replace(/:$/, "")} is not redis or rediss`);
  if (!u.hostname) throw badUrl(url, "no host");
  const port = u.port ? Number(u.port) : 6379;
  const password = extra.password ?? (u.password ? decodeURIComponent(u.password) : undefined);
  const username = u.username ? decodeURIComponent(u.username) : undefined;
  return {
    kind: "tcp",
    host: u.hostname.replace(/^\[|\]$/g, ""),
    port,
    username: username && password ? username : undefined,
    password,
    tls: extra.tls ?? u.protocol === "rediss:",
  };
}

function badUrl(url: string, why: string): GuardError {
  // Never echo a password back.
  const shown = url.replace(/\/\/([^@/]*)@/, "//***@");
  return new GuardError(`invalid engine URL ${shown}`, why, "use redis://host:6379 or rediss://host:6380", EXIT.USAGE, "E_USAGE");
}
