/**
 * What the evidence pillar adds to the graph (src/graph/schema.ts lists the shared part: COVERED_BY,
 * FAILED_IN, Run). Written by src/graph/evidence/write.ts.
 *
 *   (Function)-[:COVERED_BY {source: "coverage", confidence, evidence_count, last_verified_sha, run_id, granularity}]->(Test)
 *       confidence   1.0 per-test evidence; FILE_CONFIDENCE when only per-test-file evidence was possible
 *       evidence_count  how many recordings have confirmed this edge
 *       A test's lines outside every function (a lazy import, a class body) credit its file's `<module>`.
 *       lines, lines_hash (Python) the lines the test ran inside the function, as offsets from its first
 *           line in runs ("1-3,5", src/graph/evidence/line-sets.ts), and the first 8 characters of the function's body_hash when they
 *           were recorded: selection narrows to the tests whose lines meet a body edit only while the two
 *           hashes agree; an edge without them counts at function level
 *   (File)-[:READ_BY {last_verified_sha, run_id}]->(Test)   a non-code file the test opened (data, templates)
 *   (Test)-[:FAILED_IN]->(Run)
 *   Test += {duration_ms, last_outcome, evidence_sha, evidence_run}
 *   Function(<module>) += {import_lines, import_verified_sha}   lines run at import time (module level,
 *       class bodies), credited to no single test: an edit there selects the tests of the importing files
 *   Function += {import_time, import_time_sha, import_time_run, import_time_files}   its body ran at import
 *       time, outside every test (a decorator applied at definition, module-level registration,
 *       __init_subclass__); import_time_files: the test files whose own imports ran it, where each imports
 *       the project afresh (jest, node:test), else absent; a full recording replaces these marks per
 *       language, a --changed one only adds them
 *   (:Run {id, timestamp, commit_sha, duration_ms, total, passed, failed, source: "evidence"})
 *   (:EvidenceMeta {id: "coverage", sha, recorded_at, tests, edges, frameworks, installed_copies, distrust})   the last recording
 *       (installed_copies: the project's packages the tests imported from outside the checkout, "name from path";
 *       distrust: why its edges cannot be trusted, a failed canary: selection runs the full suite while set)
 */
export const EVIDENCE_EDGES = ["COVERED_BY", "READ_BY", "FAILED_IN"] as const;
export const FILE_CONFIDENCE = 0.6;
export const TEST_CONFIDENCE = 1.0;
/** Indexes the writer needs; the key indexes are the indexer's too (creating them again is a no-op). */
export const EVIDENCE_INDEXES: { label: string; properties: string[] }[] = [
  { label: "Function", properties: ["id"] },
  { label: "Test", properties: ["id"] },
  { label: "Test", properties: ["file"] },
  { label: "Function", properties: ["file"] },
  { label: "File", properties: ["path"] },
  { label: "Run", properties: ["id"] },
  { label: "EvidenceMeta", properties: ["id"] },
];
