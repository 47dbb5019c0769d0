import type { GitDetail, OperationKind, Target, Unresolved } from "../types.ts";

/** One argument after expansion: a literal, or something guard cannot determine. */
export interface Arg {
  value: string;
  unresolved?: Unresolved;
}

/** What an interpreter says one program invocation does. */
export interface Effect {
  kind: OperationKind;
  targets: Target[];
  git?: GitDetail;
  /** permissions: the change reaches everything below the targets (-R). */
  recursive?: boolean;
}

export interface InterpretContext {
  /** Resolve an argument against the command's cwd (place, existence, ...). */
  resolve(arg: Arg): Target;
  cwd?: string;
  root: string;
  /** The command's stdin comes from a pipe (xargs, `while read`). */
  stdinPiped: boolean;
}

export interface Interpreted {
  effects: Effect[];
  /** After this command the file system may differ in ways guard does not model. */
  unknownEffect: boolean;
}

export type Interpreter = (args: Arg[], ctx: InterpretContext) => Interpreted;

export interface OptionShape {
  /** Short options that take a value (`-n 3`, `-n3`). */
  short?: string;
  /** Long options that take a value when written without `=` (`--target-directory DIR`). */
  long?: string[];
}

export interface Parsed {
  /** Flags seen, normalized: short as "-x", long as "--name" (value after `=` in `values`). */
  flags: Set<string>;
  values: Map<string, string[]>;
  operands: Arg[];
}

/** getopt-style parsing: bundled short flags, `--long=value`, `--` ends options. */
export function parseOptions(args: Arg[], shape: OptionShape = {}): Parsed {
  const flags = new Set<string>();
  const values = new Map<string, string[]>();
  const operands: Arg[] = [];
  const put = (k: string, v: string) => values.set(k, [...(values.get(k) ?? []), v]);
  let done = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const s = a.value;
    if (done || a.unresolved || s === "-" || !s.startsWith("-")) {
      operands.push(a);
      continue;
    }
    if (s === "--") {
      done = true;
      continue;
    }
    if (s.startsWith("--")) {
      const eq = s.indexOf("=");
      const name = eq < 0 ? s : s.slice(0, eq);
      flags.add(name);
      if (eq >= 0) put(name, s.slice(eq + 1));
      else if (shape.long?.includes(name) && i + 1 < args.length) put(name, args[++i]!.value);
      continue;
    }
    for (let j = 1; j < s.length; j++) {
      const f = `-${s[j]}`;
      flags.add(f);
      if (shape.short?.includes(s[j]!)) {
        const rest = s.slice(j + 1);
        if (rest) put(f, rest);
        else if (i + 1 < args.length) put(f, args[++i]!.value);
        break;
      }
    }
  }
  return { flags, values, operands };
}

export const has = (p: Parsed, ...names: string[]) => names.some((n) => p.flags.has(n));
export const unknown = (unresolved: Unresolved, raw = "?"): Arg => ({ value: raw, unresolved });
