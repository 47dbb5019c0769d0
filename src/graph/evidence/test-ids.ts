/**
 * Recorded test ids → the graph's Test ids. Exact when the indexer saw the test; a parametrized JS title
 * (`area %i`, `add table ${x}`) matches its template; a subtest (`top > sub`) belongs to its nearest
 * known ancestor. Otherwise the recorded id stands (the writer creates that Test).
 */
export function resolveTestId(id: string, known: ReadonlySet<string>, templates: readonly { id: string; re: RegExp }[]): string {
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
    out.push({ id, re: new RegExp(`^${parts.join(".+?")}$`) });
  }
  return out;
}
