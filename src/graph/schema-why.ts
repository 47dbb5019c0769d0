/**
 * What the "why" pillar keeps in the graph (an addition to schema.ts; written with MERGE so it needs no
 * prior `guard index`, and a cache only: why answers the same, slower, without the engine).
 *
 *   (:Commit {sha, subject, date, body})
 *   (:Function {id, file, qualname, name})            id `${file}::${qualname}`, as the indexer writes it
 *   (:Decision {id, status, reason, version, source})  mirrors a `.guard-decisions/*.yaml` file
 *
 *   (Commit)-[:INTRODUCED {fragment, touching, searched_at}]->(Function)
 *       fragment   sha1 of the code line searched with `git log -S` (one edge per protective fact)
 *       touching   JSON: every commit that added or removed the fragment [{sha, date, subject, body}]
 *   (Decision)-[:PROTECTS]->(Function)
 */
export const WHY_LABELS = ["Commit", "Function", "Decision"] as const;
export const WHY_EDGES = ["INTRODUCED", "PROTECTS"] as const;

export const functionId = (file: string, qualname: string): string => `${file}::${qualname}`;

export const MERGE_INTRODUCED = `
MERGE (c:Commit {sha: row.sha})
SET c.subject = row.subject, c.date = row.date, c.body = row.body
MERGE (f:Function {id: row.fid})
ON CREATE SET f.file = row.file, f.qualname = row.qualname, f.name = row.name
MERGE (c)-[i:INTRODUCED {fragment: row.fragment}]->(f)
SET i.touching = row.touching, i.searched_at = row.searched_at`;

export const MERGE_PROTECTS = `
MERGE (d:Decision {id: row.id})
SET d.status = row.status, d.reason = row.reason, d.version = row.version, d.source = row.source
MERGE (f:Function {id: row.fid})
ON CREATE SET f.file = row.file, f.qualname = row.qualname, f.name = row.name
MERGE (d)-[:PROTECTS]->(f)`;

export const FIND_INTRODUCED = `
MATCH (c:Commit)-[i:INTRODUCED {fragment: $fragment}]->(f:Function {id: $fid})
RETURN c.sha AS sha, c.subject AS subject, c.date AS date, c.body AS body, i.touching AS touching LIMIT 1`;
