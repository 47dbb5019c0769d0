import { GuardError } from "../kernel/errors.ts";
import { toStored } from "./schema.ts";

/**
 * Query parameters travel as FalkorDB's `CYPHER name=value ...` prefix. Every value is rendered as a
 * Cypher literal here; strings are double-quoted with `\` and `"` escaped, so a value can never end
 * its literal early. Characters the engine cannot hold (NUL, lone surrogates) are escaped, and whitespace
 * at either end of a string value is stored index-safe (toStored, src/graph/schema.ts).
 */
export type ParamValue = null | undefined | string | number | bigint | boolean | ParamValue[] | { [key: string]: ParamValue };
export type Params = Record<string, ParamValue>;

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

export class ParamError extends GuardError {
  constructor(path: string, why: string) {
    super(`query parameter \`${path}\`: ${why}`, undefined, "pass a different value", 1, "E_QUERY_PARAM");
  }
}

export function cypherString(s: string): string {
  let out = '"';
  for (const ch of toStored(s)) {
    if (ch === "\\") out += "\\\\";
    else if (ch === '"') out += '\\"';
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else out += ch;
  }
  return `${out}"`;
}

function mapKey(k: string, path: string): string {
  if (IDENT.test(k)) return k;
  if (k.includes("\0")) throw new ParamError(path, "a map key contains a NUL byte");
  // FalkorDB's parameter parser cannot take an escaped backtick inside a quoted key.
  if (k.includes("`")) throw new ParamError(path, "a map key contains a backtick, which a query parameter cannot carry");
  return `\`${k}\``;
}

export function cypherLiteral(v: ParamValue, path = "value"): string {
  if (v === null || v === undefined) return "null";
  switch (typeof v) {
    case "string":
      return cypherString(v);
    case "boolean":
      return v ? "true" : "false";
    case "bigint":
      return v.toString();
    case "number":
      if (!Number.isFinite(v)) throw new ParamError(path, `${v} is not a finite number`);
      return String(v);
    case "object":
      if (Array.isArray(v)) return `[${v.map((x, i) => cypherLiteral(x, `${path}[${i}]`)).join(", ")}]`;
      return `{${Object.entries(v)
        .map(([k, x]) => `${mapKey(k, `${path}.${k}`)}: ${cypherLiteral(x, `${path}.${k}`)}`)
        .join(", ")}}`;
    default:
      throw new ParamError(path, `a ${typeof v} cannot be a query parameter`);
  }
}

/** The `CYPHER a=1 b="x" ` prefix for `params`, or "" when there are none. */
export function paramsPrefix(params: Params | undefined): string {
  if (!params) return "";
  const parts: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    if (!IDENT.test(name)) throw new ParamError(name, "a parameter name must be a plain identifier");
    parts.push(`${name}=${cypherLiteral(value, name)}`);
  }
  return parts.length ? `CYPHER ${parts.join(" ")} ` : "";
}

/** Reject NUL in the query text itself too, with the same clear message. */
export function checkQueryText(cypher: string): void {
  if (cypher.includes("\0")) throw new ParamError("query", "the query text contains a NUL byte");
}
