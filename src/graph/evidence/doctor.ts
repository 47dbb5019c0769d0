import { gitRaw } from "../../repo/git.ts";
import type { Graph } from "../client.ts";

/** What `guard doctor` shows about evidence: how much there is and how stale. */
export interface EvidenceDoctorCheck {
  name: "evidence";
  /** No evidence is a warning, not a failure: selection then runs the full suite, which is safe. */
  status: "ok" | "warn";
  detail: string;
  todo?: string;
  edges: number;
  tests: number;
  recordedSha?: string;
  commitsBehind?: number;
}

/** Commits behind HEAD after which evidence counts as stale. */
export const STALE_AFTER_COMMITS = 50;

export async function evidenceDoctorCheck(root: string, graph: Graph): Promise<EvidenceDoctorCheck> {
  const { rows } = await graph.roQuery(`MATCH (m:EvidenceMeta {id: "coverage"}) RETURN m.sha AS sha, m.recorded_at AS at, m.installed_copies AS copies`);
  const { rows: counts } = await graph.roQuery(
    `MATCH (:Function)-[r:COVERED_BY {source: "coverage"}]->(t:Test) RETURN count(r) AS edges, count(DISTINCT t) AS tests`,
  );
  const edges = Number(counts[0]?.edges ?? 0);
  const tests = Number(counts[0]?.tests ?? 0);
  const meta = rows[0];
  if (!meta || edges === 0)
    return { name: "evidence", status: "warn", detail: "no per-test coverage evidence: test selection falls back to the full suite", todo: "run `guard evidence`", edges, tests };
  const sha = String(meta.sha);
  const r = gitRaw(["rev-list", "--count", `${sha}..HEAD`], root);
  const behind = r.code === 0 ? Number(r.stdout.trim()) : undefined;
  const base = { name: "evidence" as const, edges, tests, recordedSha: sha, commitsBehind: behind };
  const copies = Array.isArray(meta.copies) ? meta.copies.map(String) : [];
  if (copies.length > 0)
    return { ...base, status: "warn", detail: `the tests run an installed copy of the project, not this checkout: ${copies.slice(0, 3).join("; ")}; edits here are not what they test`, todo: "install the project editable (`pip install -e .`), then run `guard evidence`" };
  if (behind === undefined) return { ...base, status: "warn", detail: `${edges} edges over ${tests} tests, recorded at ${sha.slice(0, 12)}, which is not in this history`, todo: "run `guard evidence`" };
  if (behind > STALE_AFTER_COMMITS) return { ...base, status: "warn", detail: `${edges} edges over ${tests} tests, ${behind} commits old`, todo: "run `guard evidence --changed`" };
  return { ...base, status: "ok", detail: `${edges} edges over ${tests} tests, ${behind} commit(s) old` };
}
