import { createHash } from "node:crypto";

/**
 * Recorded test ids → the graph's Test ids. Exact when the indexer saw the test; a parametrized JS title
 * (`area %i`, `add table ${x}`) matches its template; a subtest (`top > sub`) belongs to its nearest
 * known ancestor. Otherwise the recorded id stands (the writer creates that Test). An id too long for the
 * engine's index is first shortened (storableTestId).
 */
export function resolveTestId(id: string, known: ReadonlySet<string>, templates: readonly { id: string; re: RegExp }[]): string {
  id = storableTestId(id);
  if (known.has(id)) return id;
  for (const t of templates) if (t.re.test(id)) return t.id;
  const sep = id.indexOf("::");
  let rest = id;
  while (rest.lastIndexOf(" > ") > sep) {
    rest = rest.slice(0, rest.lastIndexOf(" > "));
    if (known.has(rest)) return rest;
  }
  return id;
}

/**
 * FalkorDB's range index never finds a key longer than 4096 bytes (and a MERGE on one makes a duplicate
 * each time), so an id past MAX_ID_BYTES is stored as its start plus a hash of the whole: deterministic,
 * so the recorder, the indexer and the runner's results all reach the same node. The runner's own id is
 * kept on the node (`runner_ids`), so filters and reports still use it.
 */
export const MAX_ID_BYTES = 2048;
const SHORTENED = / …\[[0-9a-f]{16}\]$/;

export function storableTestId(id: string): string {
  if (id.length * 3 <= MAX_ID_BYTES || Buffer.byteLength(id, "utf8") <= MAX_ID_BYTES) return id;
  const hash = createHash("sha256").update(id).digest("hex").slice(0, 16);
  return `${id.slice(0, 512)} …[${hash}]`;
}

/** Whether an id is a shortened one (its runner name must come from `runner_ids`). */
export const isShortenedId = (id: string): boolean => SHORTENED.test(id);

const PLACEHOLDER = /%[sdifjoOp#%]|\$\{[^}]*\}|\$[A-Za-z_]\w*/g;

/** Test ids with printf / template placeholders, as regular expressions over concrete titles. */
export function templatesOf(ids: Iterable<string>): { id: string; re: RegExp }[] {
  const out: { id: string; re: RegExp }[] = [];
  for (const id of ids) {
    // A template-literal title is declared with its backticks: `add table ${x}`.
    const title = id.replace(/`([^`]*)`/g, "$1");
    if (!PLACEHOLDER.test(title)) continue;
    PLACEHOLDER.lastIndex = 0;
    const parts = title.split(PLACEHOLDER).map((p) => p.replace(/[.*+?^()|[\]\\{}$]/g, "\\$&"));
    out.push({ id, re: new RegExp(`^${parts.join(".+?")}$`, "s") });
  }
  return out;
}

/**
 * The runner's id of a test → its graph id, for everything that reads runner output (results, shadow
 * misses, failed-last-run, explain): first the runner ids recorded on each Test, then the same resolution
 * the recorder uses (shortening, templates, nearest ancestor).
 */
export function runnerIdResolver(tests: readonly { id: string; runnerIds?: readonly string[] }[]): (runnerId: string) => string {
  const exact = new Map<string, string>();
  for (const t of tests) for (const r of t.runnerIds ?? []) if (!exact.has(r)) exact.set(r, t.id);
  const known = new Set(tests.map((t) => t.id));
  let templates: { id: string; re: RegExp }[] | undefined;
  return (runnerId) => {
    if (known.has(runnerId)) return runnerId;
    const hit = exact.get(runnerId);
    if (hit) return hit;
    templates ??= templatesOf(known);
    return resolveTestId(runnerId, known, templates);
  };
}
