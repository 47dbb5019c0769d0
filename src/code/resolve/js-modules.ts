import { dirOf, joinPath, type RepoView } from "./repo-view.ts";

const EXTENSIONS = [".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"];
/** `import "./x.js"` in TypeScript means x.ts (and friends). */
const TS_FOR_JS: Record<string, string[]> = { ".js": [".ts", ".tsx"], ".jsx": [".tsx"], ".mjs": [".mts"], ".cjs": [".cts"] };

interface TsPaths {
  dir: string;
  baseUrl?: string;
  paths: [string, string[]][];
}

/** Strip // and /* comments and trailing commas from JSONC (tsconfig.json). */
export function parseJsonc(text: string): unknown {
  let out = "";
  let inStr = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inStr) {
      out += ch;
      if (ch === "\\") out += text[++i] ?? "";
      else if (ch === '"') inStr = false;
    } else if (ch === '"') {
      inStr = true;
      out += ch;
    } else if (ch === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else if (ch === "/" && text[i + 1] === "*") {
      i += 2;
      while (i < text.length && !(text[i] === "*" && text[i + 1] === "/")) i++;
      i++;
    } else out += ch;
  }
  return JSON.parse(out.replace(/,(\s*[}\]])/g, "$1"));
}

/**
 * JS/TS module specifiers → files: relative paths with the usual extensions and index files, TypeScript's
 * `.js`-means-`.ts`, and `tsconfig.json` `baseUrl`/`paths` (nearest tsconfig, `extends` followed).
 * Package names stay unresolved (they are not files of this repository).
 */
export class JsModules {
  private tsconfigByDir = new Map<string, TsPaths | null>();

  constructor(private readonly repo: RepoView) {}

  resolve(fromPath: string, spec: string): string | undefined {
    if (spec.startsWith(".") || spec.startsWith("/")) {
      const base = spec.startsWith("/") ? joinPath("", spec) : joinPath(dirOf(fromPath), spec);
      return base === undefined ? undefined : this.file(base);
    }
    const ts = this.tsconfigFor(dirOf(fromPath));
    if (!ts) return undefined;
    const root = ts.baseUrl !== undefined ? joinPath(ts.dir, ts.baseUrl) : ts.dir;
    if (root === undefined) return undefined;
    for (const [pattern, targets] of ts.paths) {
      const star = pattern.indexOf("*");
      let rest: string | undefined;
      if (star === -1) rest = pattern === spec ? "" : undefined;
      else if (spec.startsWith(pattern.slice(0, star)) && spec.endsWith(pattern.slice(star + 1)) && spec.length >= pattern.length - 1)
        rest = spec.slice(star, spec.length - (pattern.length - star - 1));
      if (rest === undefined) continue;
      for (const t of targets) {
        const p = joinPath(root, t.replace("*", rest));
        const f = p === undefined ? undefined : this.file(p);
        if (f) return f;
      }
    }
    if (ts.baseUrl !== undefined) {
      const p = joinPath(root, spec);
      return p === undefined ? undefined : this.file(p);
    }
    return undefined;
  }

  private file(base: string, depth = 0): string | undefined {
    const has = (p: string) => this.repo.paths.has(p);
    const inDir = (name: string) => (base === "" ? name : `${base}/${name}`);
    const dot = base.lastIndexOf(".");
    const ext = dot > base.lastIndexOf("/") ? base.slice(dot) : "";
    if (ext && TS_FOR_JS[ext]) for (const e of TS_FOR_JS[ext]!) if (has(base.slice(0, dot) + e)) return base.slice(0, dot) + e;
    if (ext && has(base)) return base;
    if (base !== "") for (const e of EXTENSIONS) if (has(base + e)) return base + e;
    // A directory: its package.json `main` (a package's tests require('..')), then its index file.
    const main = depth < 2 ? packageMain(this.repo.read(inDir("package.json"))) : undefined;
    if (main !== undefined) {
      const p = joinPath(base, main);
      const f = p === undefined ? undefined : this.file(p, depth + 1);
      if (f) return f;
    }
    for (const e of EXTENSIONS) if (has(inDir(`index${e}`))) return inDir(`index${e}`);
    return undefined;
  }

  private tsconfigFor(dir: string): TsPaths | undefined {
    const cached = this.tsconfigByDir.get(dir);
    if (cached !== undefined) return cached ?? undefined;
    const here = dir === "" ? "tsconfig.json" : `${dir}/tsconfig.json`;
    let found: TsPaths | null = null;
    if (this.repo.paths.has(here)) found = this.load(here, 0) ?? null;
    else if (dir !== "") found = this.tsconfigFor(dirOf(dir)) ?? null;
    this.tsconfigByDir.set(dir, found);
    return found ?? undefined;
  }

  private load(path: string, depth: number): TsPaths | undefined {
    const text = this.repo.read(path);
    if (text === undefined) return undefined;
    let json: { extends?: unknown; compilerOptions?: { baseUrl?: string; paths?: Record<string, string[]> } };
    try {
      json = parseJsonc(text) as typeof json;
    } catch {
      return undefined;
    }
    const dir = dirOf(path);
    let base: TsPaths | undefined;
    if (typeof json.extends === "string" && json.extends.startsWith(".") && depth < 5) {
      let ext = joinPath(dir, json.extends);
      if (ext && !ext.endsWith(".json")) ext += ".json";
      if (ext) base = this.load(ext, depth + 1);
    }
    const co = json.compilerOptions ?? {};
    const result: TsPaths = { dir, baseUrl: co.baseUrl, paths: Object.entries(co.paths ?? {}) };
    if (base) {
      // Inherited paths stay relative to the config that declared them.
      if (result.baseUrl === undefined && base.baseUrl !== undefined) {
        result.baseUrl = joinPath("", `${base.dir}/${base.baseUrl}`)?.slice(dir.length ? dir.length + 1 : 0);
      }
      if (result.paths.length === 0) result.paths = base.paths;
    }
    return result;
  }
}

/** The `main` entry of a package.json's text, when it names a file. */
function packageMain(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  try {
    const main = (JSON.parse(text) as { main?: unknown }).main;
    return typeof main === "string" && main !== "" ? main : undefined;
  } catch {
    return undefined;
  }
}
