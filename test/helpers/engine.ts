/**
 * A real FalkorDB for tests, started through guard's own embedded backend in this test process's
 * GUARD_HOME (test/setup.ts gives each process a temporary one).
 *
 *   const engine = await startTestEngine();
 *   const graph = engine.graph();            // a fresh, uniquely named graph
 *   await graph.query("CREATE (:File {path: $p})", { p: "a.py" });
 *   afterAll(() => engine.stop());           // SIGTERMs the server, removes its files from GUARD_HOME
 *
 * For code under test that calls openGraph(root), nothing more is needed: it finds the same server
 * through GUARD_HOME. A server a test forgets to stop (or cannot, having failed midway) is killed when the
 * run ends (test/setup.ts, test/helpers/strays.ts); a test that makes its own GUARD_HOME takes it from
 * tempHome() so its servers are caught too.
 */
import { randomBytes } from "node:crypto";
import { GraphClient, type Graph } from "../../src/graph/client.ts";
import { ensureEmbedded, stopEmbedded, type ServerState } from "../../src/graph/engine/embedded.ts";
import { guardHome } from "../../src/state/paths.ts";

export interface TestEngine {
  home: string;
  socket: string;
  server: ServerState;
  client: GraphClient;
  /** A graph on the test engine; without a name, a new unique one. */
  graph(name?: string): Graph;
  stop(): Promise<void>;
}

export async function startTestEngine(opts: { queryTimeoutMs?: number } = {}): Promise<TestEngine> {
  const home = guardHome();
  // Orphans (a test run killed midway) stop themselves after 10 minutes.
  const server = await ensureEmbedded({ home, idleTimeoutSeconds: 600 });
  const client = await GraphClient.connect({ kind: "socket", path: server.socket }, { queryTimeoutMs: opts.queryTimeoutMs ?? 30000 });
  let stopped = false;
  return {
    home,
    socket: server.socket,
    server,
    client,
    graph: (name) => client.graph(name ?? `test_${randomBytes(6).toString("hex")}`),
    async stop() {
      if (stopped) return;
      stopped = true;
      await client.close();
      await stopEmbedded(home);
    },
  };
}
