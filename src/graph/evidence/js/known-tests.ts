import type { Graph } from "../../client.ts";
import { templatesOf } from "../test-ids.ts";

/**
 * The node:test ids the graph knows (`file::top > sub`) and the templates among them, for the hook: a
 * subtest that is none of them, has no known test inside it and sits in a known test is merged into that
 * test when the evidence is written (test-ids.ts), so the hook takes no coverage at its boundaries.
 */
export interface KnownTests {
  ids: string[];
  templates: string[];
}

export async function knownNodeTests(graph: Graph): Promise<KnownTests> {
  try {
    const { rows } = await graph.roQuery(`MATCH (t:Test) WHERE t.framework = "node:test" RETURN t.id AS id`);
    const ids = rows.map((r) => r.id).filter((id): id is string => typeof id === "string");
    return { ids, templates: templatesOf(ids).map((t) => t.re.source) };
  } catch {
    return { ids: [], templates: [] };
  }
}
