import type { LanguageId } from "../grammars.ts";
import { DISPATCH_RULES, type DispatchRule } from "./rules.ts";

/** What an extractor saw that a dispatch rule may match. */
export type DispatchEvent =
  | { on: "call"; name?: string; object?: string; subscript?: boolean; dynamicImport?: boolean; kwargsForward?: boolean; literalArg?: (index: number) => boolean; fileCodeArg?: (index: number) => boolean }
  | { on: "new"; name: string }
  | { on: "def"; name: string };

const byLanguage = new Map<LanguageId, DispatchRule[]>();

export function rulesFor(lang: LanguageId): DispatchRule[] {
  let rules = byLanguage.get(lang);
  if (!rules) {
    rules = DISPATCH_RULES.filter((r) => r.languages.includes(lang));
    byLanguage.set(lang, rules);
  }
  return rules;
}

/** Ids of the rules the event matches (usually none). */
export function matchDispatch(rules: DispatchRule[], ev: DispatchEvent, out: string[]): void {
  for (const r of rules) {
    const m = r.match;
    let hit = false;
    if (ev.on === "call" && m.call) {
      const c = m.call;
      if (c.names && ev.name !== undefined && ev.object === undefined && c.names.includes(ev.name)) hit = (c.nameArg === undefined || !ev.literalArg?.(c.nameArg)) && (c.codeArg === undefined || !ev.fileCodeArg?.(c.codeArg));
      else if (c.objects && ev.object !== undefined && c.objects.includes(ev.object)) hit = true;
      else if (c.subscript && ev.subscript) hit = true;
      else if (c.dynamicImport && ev.dynamicImport) hit = true;
      else if (c.kwargsForward && ev.kwargsForward) hit = true;
    } else if (ev.on === "new" && m.newOf) hit = m.newOf.includes(ev.name);
    else if (ev.on === "def" && m.defines) hit = m.defines.includes(ev.name);
    if (hit && !out.includes(r.id)) out.push(r.id);
  }
}
