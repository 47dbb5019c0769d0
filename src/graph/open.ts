import { requireRepoRoot } from "../repo/git.ts";
import { type Graph } from "./client.ts";
import { connectEngine, engineSettings, type EngineDeps, type EngineSettings } from "./engine/index.ts";
import { graphName } from "./name.ts";

/**
 * The graph of the repository at `root`, on the engine its config names (embedded by default, started
 * if need be). `graph.close()` closes the connection. See client.ts for the query API.
 */
export async function openGraph(root: string, overrides: Partial<EngineSettings> = {}, deps: EngineDeps = {}): Promise<Graph> {
  const repo = requireRepoRoot(root);
  const { client } = await connectEngine(engineSettings(repo, overrides), deps);
  const graph = client.graph(graphName(repo));
  graph.ownsClient = true;
  return graph;
}
