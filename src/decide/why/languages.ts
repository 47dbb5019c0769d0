import type { LanguageId } from "../../code/grammars.ts";

/** Languages the why detector understands (a file in any other has no findings). */
export const DETECTED: ReadonlySet<LanguageId> = new Set(["typescript", "tsx", "javascript", "python", "go"]);
