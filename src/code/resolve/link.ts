import type { LanguageId } from "../grammars.ts";
import type { ClassDef, Def, FileExtract } from "../extract/types.ts";
import {
  CONFIDENCE,
  MAX_NAME_CANDIDATES,
  edgeId,
  functionId,
  type EdgeRecord,
  type NodeRecord,
  type Resolution,
} from "../../graph/schema.ts";
import { GoModules } from "./go-modules.ts";
import { JsModules } from "./js-modules.ts";
import { PythonModules } from "./python-modules.ts";
import { dirOf, type RepoView } from "./repo-view.ts";
import { testFramework, testSelector } from "./tests.ts";

export interface IndexedFile {
  extract: FileExtract;
  sha: string;
  bytes: number;
}

export interface FileRecords {
  nodes: NodeRecord[];
  /** The file's outgoing edges (DEFINED_IN, IMPORTS, IMPLEMENTED_BY, CALLS made by its functions). */
  edges: EdgeRecord[];
}

export interface LinkedGraph {
  nodes: NodeRecord[];
  edges: EdgeRecord[];
  /** The same records grouped by the file they come from. */
  byFile: Map<string, FileRecords>;
}

/**
 * What other files' resolution can see of a file: its names, scopes, imports and exports, not its bodies,
 * lines or calls. When a re-parsed file keeps its signature, no other file's records can change.
 */
export function signature(x: FileExtract): string {
  return JSON.stringify([
    x.lang,
    x.pkg ?? null,
    x.defs.map((d) => [d.qualname, d.name, d.kind, d.cls ?? null, d.parent ?? null]),
    x.classes.map((c) => [c.qualname, c.bases]),
    x.imports.map((i) => [i.spec, i.level, i.names, i.namespace ?? null, i.star ?? false, i.reexport ?? false]),
    x.exports,
  ]);
}

type Family = "python" | "js" | "go" | "rust" | "java";
const FAMILY: Record<LanguageId, Family | undefined> = {
  python: "python",
  javascript: "js",
  typescript: "js",
  tsx: "js",
  go: "go",
  rust: "rust",
  java: "java",
  bash: undefined,
};

interface Located {
  file: string;
  def: Def;
}
interface LocatedClass {
  file: string;
  cls: ClassDef;
}
type Target = ({ kind: "def" } & Located) | ({ kind: "class" } & LocatedClass);

interface FileScope {
  x: FileExtract;
  family: Family;
  defs: Map<string, Def>;
  top: Map<string, Def>;
  classes: Map<string, ClassDef>;
  topClasses: Map<string, ClassDef>;
  methods: Map<string, Map<string, Def>>;
  /** local name → (file, name in that file) */
  bindings: Map<string, { file: string; name: string }>;
  /** local (dotted) name → the module's files */
  modules: Map<string, string[]>;
  /** local names bound to imports outside the repository */
  externals: Set<string>;
  stars: string[];
  exports: Map<string, string>;
  reexports: Map<string, { file: string; name: string }>;
  starReexports: string[];
  imports: Set<string>;
}

/**
 * Turn per-file extracts into graph records: File/Function/Class/Test nodes, DEFINED_IN, IMPORTS between
 * repository files, IMPLEMENTED_BY, and CALLS resolved statically (see schema.ts CONFIDENCE for the kinds).
 * Pure and deterministic: the same extracts give the same records in the same order.
 */
export function link(files: ReadonlyMap<string, IndexedFile>, repo: RepoView, emitOnly?: ReadonlySet<string>): LinkedGraph {
  const paths = [...files.keys()].sort();
  const py = new PythonModules(paths.filter((p) => files.get(p)!.extract.lang === "python"), repo);
  const js = new JsModules(repo);
  const go = new GoModules(repo);
  const scopes = new Map<string, FileScope>();
  const goDirs = new Map<string, string[]>();
  for (const p of paths) if (files.get(p)!.extract.lang === "go") (goDirs.get(dirOf(p)) ?? goDirs.set(dirOf(p), []).get(dirOf(p))!).push(p);

  // A file's scope (its definitions, then its imports bound) is built when first asked for: a run that
  // emits only a few files never builds the scopes resolution does not reach.
  const scopeOf = (p: string): FileScope | undefined => {
    let s = scopes.get(p);
    if (s) return s;
    const f = files.get(p);
    if (!f) return undefined;
    s = definitions(f.extract);
    scopes.set(p, s);
    if (s.family === "python") bindPython(p, s);
    else if (s.family === "js") bindJs(p, s);
    else if (s.family === "go") bindGo(p, s);
    return s;
  };

  function definitions(x: FileExtract): FileScope {
    const s: FileScope = {
      x,
      family: FAMILY[x.lang]!,
      defs: new Map(),
      top: new Map(),
      classes: new Map(),
      topClasses: new Map(),
      methods: new Map(),
      bindings: new Map(),
      modules: new Map(),
      externals: new Set(),
      stars: [],
      exports: new Map(),
      reexports: new Map(),
      starReexports: [],
      imports: new Set(),
    };
    for (const d of x.defs) {
      s.defs.set(d.qualname, d);
      if (d.cls) {
        let m = s.methods.get(d.cls);
        if (!m) s.methods.set(d.cls, (m = new Map()));
        if (!m.has(d.name)) m.set(d.name, d);
      } else if (!d.parent && d.kind === "function" && !s.top.has(d.name)) s.top.set(d.name, d);
    }
    for (const c of x.classes) {
      s.classes.set(c.qualname, c);
      if (!c.qualname.includes(".") && !s.topClasses.has(c.name)) s.topClasses.set(c.name, c);
    }
    for (const e of x.exports) if (!s.exports.has(e.name)) s.exports.set(e.name, e.local);
    return s;
  }

  function bindPython(p: string, s: FileScope): void {
    for (const imp of s.x.imports) {
      let modFile: string | undefined;
      let base: string | undefined;
      let dotted = imp.spec;
      if (imp.level > 0) {
        base = py.relativeBase(p, imp.level);
        modFile = base === undefined ? undefined : py.underDir(base, imp.spec);
      } else modFile = py.absolute(imp.spec);
      if (imp.namespace) {
        // import a.b.c: binds a, a.b, a.b.c
        const parts = imp.spec.split(".");
        for (let i = 1; i <= parts.length; i++) {
          const name = parts.slice(0, i).join(".");
          const f = py.absolute(name);
          if (f) s.modules.set(name, [f]);
          else s.externals.add(name);
        }
        if (modFile) s.imports.add(modFile);
        continue;
      }
      if (imp.star) {
        if (modFile) {
          s.imports.add(modFile);
          s.stars.push(modFile);
        }
        continue;
      }
      for (const n of imp.names) {
        if (n.imported === "*module*") {
          if (modFile) {
            s.modules.set(n.local, [modFile]);
            s.imports.add(modFile);
          } else s.externals.add(n.local);
          continue;
        }
        // `from pkg import mod` binds a submodule when there is one.
        const sub = imp.level > 0 ? (base === undefined ? undefined : subModule(base, dotted, n.imported)) : py.absolute(dotted ? `${dotted}.${n.imported}` : n.imported);
        if (sub && sub !== modFile) {
          s.modules.set(n.local, [sub]);
          s.imports.add(sub);
        } else if (modFile) {
          s.bindings.set(n.local, { file: modFile, name: n.imported });
          s.imports.add(modFile);
        } else s.externals.add(n.local);
      }
    }
  }

  function subModule(base: string, dotted: string, name: string): string | undefined {
    return py.underDir(base, dotted ? `${dotted}.${name}` : name);
  }

  function bindJs(p: string, s: FileScope): void {
    for (const imp of s.x.imports) {
      const target = js.resolve(p, imp.spec);
      if (!target || !files.has(target)) {
        for (const n of imp.names) if (!imp.reexport) s.externals.add(n.local);
        if (imp.namespace) s.externals.add(imp.namespace);
        continue;
      }
      if (target !== p) s.imports.add(target);
      if (imp.reexport) {
        if (imp.star) s.starReexports.push(target);
        for (const n of imp.names) {
          if (n.imported === "*module*") s.modules.set(n.local, [target]);
          else s.reexports.set(n.local, { file: target, name: n.imported });
        }
        continue;
      }
      if (imp.namespace) s.modules.set(imp.namespace, [target]);
      for (const n of imp.names) s.bindings.set(n.local, { file: target, name: n.imported });
    }
  }

  function bindGo(p: string, s: FileScope): void {
    for (const imp of s.x.imports) {
      const dir = go.packageDir(imp.spec);
      const pkgFiles = dir === undefined ? undefined : (goDirs.get(dir) ?? []).filter((f) => !f.endsWith("_test.go"));
      const local = imp.namespace ?? (pkgFiles?.[0] ? files.get(pkgFiles[0])!.extract.pkg : undefined) ?? imp.spec.split("/").pop()!;
      if (!pkgFiles || pkgFiles.length === 0) {
        s.externals.add(local);
        continue;
      }
      for (const f of pkgFiles) if (f !== p) s.imports.add(f);
      if (local !== "_" && local !== ".") s.modules.set(local, pkgFiles);
    }
  }

  // Lookups across files.
  const resolveName = (file: string, name: string, depth = 0): Target | undefined => {
    if (depth > 8) return undefined;
    const s = scopeOf(file);
    if (!s) return undefined;
    const local = s.family === "js" ? (s.exports.get(name) ?? name) : name;
    const d = s.top.get(local);
    if (d) return { kind: "def", file, def: d };
    const c = s.topClasses.get(local);
    if (c) return { kind: "class", file, cls: c };
    const b = s.bindings.get(local);
    if (b) return resolveName(b.file, b.name, depth + 1);
    const r = s.reexports.get(name);
    if (r) return resolveName(r.file, r.name, depth + 1);
    for (const f of s.family === "js" ? s.starReexports : s.stars) {
      const t = resolveName(f, name, depth + 1);
      if (t) return t;
    }
    return undefined;
  };

  const resolveClass = (file: string, text: string, depth = 0): LocatedClass | undefined => {
    const s = scopeOf(file)!;
    const dot = text.lastIndexOf(".");
    if (dot !== -1) {
      for (const f of s.modules.get(text.slice(0, dot)) ?? []) {
        const t = resolveName(f, text.slice(dot + 1), depth + 1);
        if (t?.kind === "class") return t;
      }
      return undefined;
    }
    const c = s.topClasses.get(text) ?? s.classes.get(text);
    if (c) return { file, cls: c };
    const t = resolveName(file, text, depth + 1);
    return t?.kind === "class" ? t : undefined;
  };

  const findMethod = (file: string, classQual: string, name: string, depth = 0): Located | undefined => {
    if (depth > 8) return undefined;
    const s = scopeOf(file)!;
    const own = s.methods.get(classQual)?.get(name);
    if (own) return { file, def: own };
    if (s.family === "go") {
      for (const f of goDirs.get(dirOf(file)) ?? []) {
        const m = scopeOf(f)!.x.pkg === s.x.pkg ? scopeOf(f)!.methods.get(classQual)?.get(name) : undefined;
        if (m) return { file: f, def: m };
      }
      return undefined;
    }
    const cls = s.classes.get(classQual);
    for (const b of cls?.bases ?? []) {
      const base = resolveClass(file, b, depth + 1);
      if (base) {
        const m = findMethod(base.file, base.cls.qualname, name, depth + 1);
        if (m) return m;
      }
    }
    return undefined;
  };

  const constructorOf = (t: LocatedClass): Located | undefined => {
    const s = scopeOf(t.file)!;
    const ctor = s.family === "python" ? "__init__" : s.family === "js" ? "constructor" : t.cls.name;
    return findMethod(t.file, t.cls.qualname, ctor);
  };

  // By-name candidates per language family: functions and methods (built on the first by-name lookup).
  let byName: Map<Family, Map<string, Located[]>> | undefined;
  const candidates = (family: Family, name: string): Located[] => {
    if (!byName) {
      byName = new Map();
      for (const p of paths) {
        const x = files.get(p)!.extract;
        const fam = FAMILY[x.lang]!;
        let m = byName.get(fam);
        if (!m) byName.set(fam, (m = new Map()));
        for (const d of x.defs) {
          if (d.kind !== "function" && d.kind !== "method") continue;
          const list = m.get(d.name);
          if (list) list.push({ file: p, def: d });
          else m.set(d.name, [{ file: p, def: d }]);
        }
      }
    }
    return byName.get(family)?.get(name) ?? [];
  };

  let nodes: NodeRecord[] = [];
  let edges = new Map<string, EdgeRecord>();
  const byFile = new Map<string, FileRecords>();
  const addEdge = (e: EdgeRecord) => {
    const id = edgeId(e);
    const prev = edges.get(id);
    if (!prev) edges.set(id, e);
    else if (e.type === "CALLS") {
      prev.props.count = Number(prev.props.count) + 1;
      if (Number(e.props.confidence) > Number(prev.props.confidence)) {
        prev.props.confidence = e.props.confidence;
        prev.props.resolution = e.props.resolution;
      }
    }
  };
  const call = (fromFile: string, from: Def, to: Located, resolution: Resolution) =>
    addEdge({
      type: "CALLS",
      fromLabel: "Function",
      from: functionId(fromFile, from.qualname),
      toLabel: "Function",
      to: functionId(to.file, to.def.qualname),
      props: { source: "static", confidence: CONFIDENCE[resolution], resolution, count: 1 },
    });
  const callTarget = (fromFile: string, from: Def, t: Target | undefined, resolution: Resolution): boolean => {
    if (!t) return false;
    if (t.kind === "def") call(fromFile, from, t, resolution);
    else {
      const ctor = constructorOf(t);
      if (ctor) call(fromFile, from, ctor, "constructor");
    }
    return true;
  };
  const callByName = (fromFile: string, from: Def, family: Family, name: string, methodsOnly: boolean) => {
    const all = candidates(family, name);
    const list = methodsOnly ? all.filter((l) => l.def.kind === "method") : all;
    if (list.length === 0 || list.length > MAX_NAME_CANDIDATES) return;
    for (const l of list) call(fromFile, from, l, list.length === 1 ? "name" : "name-ambiguous");
  };

  for (const p of paths) {
    if (emitOnly && !emitOnly.has(p)) continue;
    nodes = [];
    edges = new Map();
    const f = files.get(p)!;
    const s = scopeOf(p)!;
    const x = s.x;
    nodes.push({
      label: "File",
      key: p,
      props: { path: p, lang: x.lang, sha: f.sha, lines: x.lines, bytes: f.bytes, parse_error: x.problems.length > 0 ? x.problems.join("; ") : null },
    });
    for (const d of x.defs) {
      const id = functionId(p, d.qualname);
      nodes.push({
        label: "Function",
        key: id,
        props: {
          id,
          file: p,
          name: d.name,
          qualname: d.qualname,
          kind: d.kind,
          start: d.start,
          end: d.end,
          body_hash: d.bodyHash,
          has_dynamic_dispatch: d.dynamic.length > 0,
          dynamic_dispatch: d.dynamic.join(","),
        },
      });
      addEdge({ type: "DEFINED_IN", fromLabel: "Function", from: id, toLabel: "File", to: p, props: {} });
    }
    for (const c of x.classes) {
      const id = functionId(p, c.qualname);
      nodes.push({ label: "Class", key: id, props: { id, file: p, name: c.name, qualname: c.qualname, start: c.start, end: c.end } });
      addEdge({ type: "DEFINED_IN", fromLabel: "Class", from: id, toLabel: "File", to: p, props: {} });
    }
    for (const t of x.tests) {
      const id = functionId(p, t.qualname);
      const framework = testFramework(p, t.framework, repo);
      nodes.push({
        label: "Test",
        key: id,
        props: { id, file: p, name: t.name, qualname: t.qualname, framework, selector: testSelector(p, t, framework), start: t.start, end: t.end },
      });
      addEdge({ type: "DEFINED_IN", fromLabel: "Test", from: id, toLabel: "File", to: p, props: {} });
      addEdge({ type: "IMPLEMENTED_BY", fromLabel: "Test", from: id, toLabel: "Function", to: id, props: {} });
    }
    for (const target of [...s.imports].sort()) addEdge({ type: "IMPORTS", fromLabel: "File", from: p, toLabel: "File", to: target, props: {} });

    // Calls.
    for (const cs of x.calls) {
      const from = s.defs.get(cs.from);
      if (!from) continue;
      switch (cs.kind) {
        case "plain":
        case "new": {
          // Nested functions of the caller and its enclosing functions.
          let scopeDef: Def | undefined = from;
          let done = false;
          while (scopeDef && !done) {
            const nested = s.defs.get(`${scopeDef.qualname}.${cs.name}`);
            if (nested && !nested.cls && nested.kind === "function") {
              call(p, from, { file: p, def: nested }, "nested");
              done = true;
            }
            scopeDef = scopeDef.parent ? s.defs.get(scopeDef.parent) : undefined;
          }
          if (done) break;
          if (s.family === "go") {
            for (const gf of goDirs.get(dirOf(p)) ?? []) {
              const gs = scopeOf(gf)!;
              const d = gs.x.pkg === x.pkg ? gs.top.get(cs.name) : undefined;
              if (d) {
                call(p, from, { file: gf, def: d }, "local");
                break;
              }
            }
            break;
          }
          const localDef = s.top.get(cs.name);
          if (localDef) {
            call(p, from, { file: p, def: localDef }, "local");
            break;
          }
          const localCls = s.topClasses.get(cs.name);
          if (localCls) {
            const ctor = constructorOf({ file: p, cls: localCls });
            if (ctor) call(p, from, ctor, "constructor");
            break;
          }
          const b = s.bindings.get(cs.name);
          if (b) {
            callTarget(p, from, resolveName(b.file, b.name), "import");
            break;
          }
          let starHit = false;
          for (const sf of s.stars) if (!starHit) starHit = callTarget(p, from, resolveName(sf, cs.name), "import");
          if (starHit) break;
          if ((s.family === "rust" || s.family === "java") && !s.externals.has(cs.name)) callByName(p, from, s.family, cs.name, false);
          break;
        }
        case "member": {
          const obj = cs.object;
          const mods = obj === undefined ? undefined : s.modules.get(obj);
          if (mods) {
            let hit = false;
            for (const mf of mods) {
              const ms = scopeOf(mf);
              if (!ms) continue;
              const d = ms.top.get(cs.name);
              if (d) {
                call(p, from, { file: mf, def: d }, s.family === "go" ? "package" : "import");
                hit = true;
                break;
              }
              if (s.family !== "go") hit = callTarget(p, from, resolveName(mf, cs.name), "import") || hit;
            }
            break;
          }
          if (obj !== undefined && s.externals.has(obj.split(".")[0]!)) break;
          // A method of an object literal (or namespace) of this file: greeter.greet().
          const own = obj === undefined ? undefined : s.defs.get(`${obj}.${cs.name}`);
          if (own && !own.cls) {
            call(p, from, { file: p, def: own }, "local");
            break;
          }
          if (obj !== undefined && !obj.includes(".")) {
            // Foo.create() on a class of this file or an imported class.
            const cls = s.family === "go" ? undefined : resolveClass(p, obj);
            if (cls) {
              const m = findMethod(cls.file, cls.cls.qualname, cs.name);
              if (m) call(p, from, m, cls.file === p ? "local" : "import");
              break;
            }
          }
          callByName(p, from, s.family, cs.name, true);
          break;
        }
        case "self": {
          const m = cs.object === undefined ? undefined : findMethod(p, cs.object, cs.name);
          if (m) call(p, from, m, "self");
          else callByName(p, from, s.family, cs.name, true);
          break;
        }
        case "super": {
          const cls = from.cls ? s.classes.get(from.cls) : undefined;
          let hit = false;
          for (const b of cls?.bases ?? []) {
            const base = resolveClass(p, b);
            const m = base ? findMethod(base.file, base.cls.qualname, cs.name) : undefined;
            if (m && !hit) {
              call(p, from, m, "self");
              hit = true;
            }
          }
          break;
        }
      }
    }
    byFile.set(p, { nodes, edges: [...edges.values()] });
  }

  const all: LinkedGraph = { nodes: [], edges: [], byFile };
  for (const r of byFile.values()) {
    for (const n of r.nodes) all.nodes.push(n);
    for (const e of r.edges) all.edges.push(e);
  }
  return all;
}
