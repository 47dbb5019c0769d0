import { readdirSync } from "node:fs";
import { join } from "node:path";
import { hasUnescaped, unescapePattern } from "./words.ts";

/**
 * Pathname expansion the way bash does it by default (no nullglob, no globstar, no dotglob):
 * `*`, `?` and `[...]` per path segment, hidden names only when the segment starts with a literal dot,
 * no match → the word stays as written. Returns undefined for shapes guard does not expand (extglob).
 */
export function expandGlob(pattern: string, cwd: string): string[] | undefined {
  if (!hasUnescaped(pattern, "*?[")) return [unescapePattern(pattern)];
  if (hasUnescaped(pattern, "()|")) return undefined;
  const absolute = pattern.startsWith("/");
  const segments = splitSegments(absolute ? pattern.slice(1) : pattern);
  let bases: string[] = [absolute ? "/" : ""];
  for (const seg of segments) {
    const next: string[] = [];
    if (!hasUnescaped(seg, "*?[")) {
      const lit = unescapePattern(seg);
      for (const b of bases) next.push(b === "" ? lit : b === "/" ? `/${lit}` : `${b}/${lit}`);
    } else {
      const re = segmentRegExp(seg);
      if (!re) return undefined;
      const dotOk = seg.startsWith(".") || seg.startsWith("\\.");
      for (const b of bases) {
        let names: string[];
        try {
          names = readdirSync(b === "" ? cwd : absolute || b.startsWith("/") ? b : join(cwd, b));
        } catch {
          continue;
        }
        for (const n of names.sort()) {
          if (n.startsWith(".") && !dotOk) continue;
          if (re.test(n)) next.push(b === "" ? n : b === "/" ? `/${n}` : `${b}/${n}`);
        }
      }
    }
    bases = next;
    if (bases.length === 0) break;
  }
  // Only names that exist count (the last literal segments may not): bash keeps the word if nothing matched.
  return bases.length > 0 ? bases : [unescapePattern(pattern)];
}

function splitSegments(p: string): string[] {
  const out: string[] = [];
  let cur = "";
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === "\\" && i + 1 < p.length) {
      cur += c + p[i + 1];
      i++;
    } else if (c === "/") {
      if (cur) out.push(cur);
      cur = "";
    } else cur += c;
  }
  if (cur) out.push(cur);
  return out;
}

function segmentRegExp(seg: string): RegExp | undefined {
  let re = "^";
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i]!;
    if (c === "\\" && i + 1 < seg.length) {
      re += escapeRe(seg[++i]!);
    } else if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else if (c === "[") {
      const close = seg.indexOf("]", i + 2);
      if (close < 0) {
        re += "\\[";
        continue;
      }
      let body = seg.slice(i + 1, close);
      let neg = false;
      if (body.startsWith("!") || body.startsWith("^")) {
        neg = true;
        body = body.slice(1);
      }
      if (body.includes("[:")) return undefined;
      re += `[${neg ? "^" : ""}${body.replace(/\\/g, "\\\\").replace(/]/g, "\\]")}]`;
      i = close;
    } else re += escapeRe(c);
  }
  return new RegExp(`${re}$`, "s");
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
