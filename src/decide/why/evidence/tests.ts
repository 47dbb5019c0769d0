import { languageForPath, parse } from "../../../code/parser.ts";
import type { TreeReader } from "../decisions/load.ts";
import { DETECTED } from "../detect.ts";
import { factsOf } from "../syntax/facts.ts";
import { nestedScopeNodes, scopesOf } from "../syntax/scopes.ts";

/** `weakened`: it still stands but this change removed or loosened one of its assertions. */
export type TestStatus = "intact" | "weakened" | "missing" | "skipped" | "no_assertions";

export interface RequiredTest {
  /** As written in the decision: "test/payments.test.ts::charges once per key" (pytest ids work too). */
  spec: string;
  status: TestStatus;
  file?: string;
  /** The spec names a whole test file: it shows the file is still tested, not which test guards the code. */
  wholeFile?: boolean;
}

/** Split "path::name" (pytest's "path::Class::test" becomes "Class.test"). */
export function splitTestSpec(spec: string): { file?: string; name: string } {
  const i = spec.indexOf("::");
  if (i < 0) return { name: spec.trim() };
  return { file: spec.slice(0, i).trim(), name: spec.slice(i + 2).split("::").join(".").trim() };
}

/** Whether a required regression test exists in `tree`, not skipped and with at least one assertion. */
export async function requiredTestStatus(spec: string, tree: TreeReader, candidates: () => string[]): Promise<RequiredTest> {
  const { file, name } = splitTestSpec(spec);
  // A whole test file (WhyGuard's style): it stands while one of its tests stands.
  if (!file && languageForPath(name) && tree.read(name) !== undefined) return wholeFileStatus(spec, name, tree);
  const files = file ? [file] : candidates();
  let best: RequiredTest = { spec, status: "missing", file };
  for (const f of files) {
    const lang = languageForPath(f);
    const text = tree.read(f);
    if (!lang || !DETECTED.has(lang) || text === undefined) continue;
    const t = await parse(lang, text);
    try {
      const scopes = scopesOf(lang, t, f);
      const want = name.replace(/\s+/g, " ");
      const s = scopes.find((x) => x.kind === "test" && (x.qualname === want || x.name === want || x.qualname.endsWith(` > ${want}`) || x.qualname.endsWith(`.${want}`)));
      if (!s) continue;
      if (s.skipped) best = { spec, status: "skipped", file: f };
      else if (!factsOf(s, nestedScopeNodes(s, scopes)).some((x) => x.type === "assertion")) best = { spec, status: "no_assertions", file: f };
      else return { spec, status: "intact", file: f };
    } finally {
      t.delete();
    }
  }
  return best;
}

async function wholeFileStatus(spec: string, file: string, tree: TreeReader): Promise<RequiredTest> {
  const lang = languageForPath(file)!;
  if (!DETECTED.has(lang)) return { spec, status: "intact", file, wholeFile: true };
  const t = await parse(lang, tree.read(file)!);
  try {
    const scopes = scopesOf(lang, t, file).filter((x) => x.kind === "test");
    const live = scopes.filter((s) => !s.skipped);
    if (scopes.length === 0) return { spec, status: "missing", file };
    if (live.length === 0) return { spec, status: "skipped", file };
    const all = scopesOf(lang, t, file);
    const asserted = live.some((s) => factsOf(s, nestedScopeNodes(s, all)).some((x) => x.type === "assertion"));
    return { spec, status: asserted ? "intact" : "no_assertions", file, wholeFile: true };
  } finally {
    t.delete();
  }
}
