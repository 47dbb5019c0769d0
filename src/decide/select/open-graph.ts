import type { Graph } from "../../graph/client.ts";
import { readState, serverProcessAlive, unrecordedServer } from "../../graph/engine/embedded.ts";
import { engineSettings } from "../../graph/engine/index.ts";
import { pingReply } from "../../graph/engine/resp.ts";
import { describeMissingIndex, findIndexState } from "../../graph/index-state.ts";
import { openGraph } from "../../graph/open.ts";
import { SelectionFault } from "./decide.ts";
import { FAULTS } from "./overrides.ts";

/**
 * The repository's graph for selection, or a fault quickly: a hung engine must not hold an agent's stop
 * hook for the client's usual connect timeout. Starting an embedded engine that is not running may take
 * its time (that is not a hang); a running one that does not answer a PING within `connectTimeoutMs`,
 * or a server that does not connect within it, is a fault (the full suite runs). A repository the
 * embedded engine never indexed has nothing to select from: that fault needs no engine at all.
 */
export async function openSelectionGraph(root: string, opts: { queryTimeoutMs: number; connectTimeoutMs?: number }): Promise<Graph> {
  const settings = engineSettings(root, { queryTimeoutMs: opts.queryTimeoutMs });
  // How long selection waits for an engine that is running but silent (hung, stopped): `engine.connectTimeoutMs`.
  const connectTimeoutMs = opts.connectTimeoutMs ?? settings.connectTimeoutMs;
  if (settings.backend === "embedded") {
    requireIndexed(root);
    // server.json may be lost or unwritable (a full disk): the server is found by its marker then.
    const server = readState() ?? unrecordedServer();
    if (server && serverProcessAlive(server)) {
      const reply = await pingReply(server.socket, connectTimeoutMs);
      if (reply === "loading") throw new SelectionFault(FAULTS.engineDown, `the embedded engine (pid ${server.pid}) is still loading its data`);
      if (reply === "silent") throw new SelectionFault(FAULTS.engineDown, `the embedded engine (pid ${server.pid}) is running but did not answer within ${connectTimeoutMs} ms`);
    }
    return openGraph(root, { queryTimeoutMs: opts.queryTimeoutMs });
  }
  if (settings.backend !== "server") return openGraph(root, { queryTimeoutMs: opts.queryTimeoutMs });
  const opening = openGraph(root, { queryTimeoutMs: opts.queryTimeoutMs });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SelectionFault(FAULTS.engineDown, `the engine at ${settings.url} did not answer within ${connectTimeoutMs} ms`)), connectTimeoutMs);
  });
  try {
    return await Promise.race([opening, deadline]);
  } catch (e) {
    // A connection that arrives after the deadline is closed, never used.
    opening.then((g) => g.close()).catch(() => {});
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

/** A repository the embedded engine never indexed has nothing to select from: the empty-graph fault. */
export function requireIndexed(root: string): void {
  const found = findIndexState(root);
  if (!("state" in found)) throw new SelectionFault(FAULTS.emptyGraph, describeMissingIndex(found));
}
