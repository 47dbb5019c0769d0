import { languageForPath, parse } from "../../../code/parser.ts";
import type { TreeReader } from "../decisions/load.ts";
import { DETECTED } from "../detect.ts";
import { factsOf } from "../syntax/facts.ts";
import { nestedScopeNodes, scopesOf } from "../syntax/scopes.ts";

export type TestStatus = "intact" | "missing" | "skipped" | "no_assertions";

export interface RequiredTest {
  /** As written in the decision: "test/payments.test.ts::charges once per key" (pytest ids work too). */
  spec: string;
  status: TestStatus;
  file?: string;
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
