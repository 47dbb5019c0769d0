import type { Language } from "../code-rules.ts";
import type { Arg } from "./args.ts";

/** Where an interpreter's code comes from: a command-line argument, or stdin (`python -`, `node` alone). */
export interface CodeSource {
  language: Language;
  /** `-c`/`-e`/`-r` code; several `-e` are joined by newlines. */
  code?: Arg;
  /** The code is read from stdin (no script file, no code argument). */
  stdin: boolean;
  /** How the code was given, for the reason (`python -c`). */
  flag: string;
}

interface RunnerSpec {
  language: Language;
  /** Single-letter switches whose value is the code. */
  code: string;
  /** Long options whose value is the code. */
  longCode?: string[];
  /** Switches that take a value that is not code (`-W arg`, `-r lib`). */
  valued: string;
  /** Switches after which the interpreter runs a module or something guard does not read as code (`python -m`). */
  module?: string;
}

const RUNNERS: [RegExp, RunnerSpec][] = [
  [/^(python[\d.]*|pypy[\d.]*)$/, { language: "python", code: "c", valued: "WXQ", module: "m" }],
  [/^(node|nodejs)$/, { language: "node", code: "ep", longCode: ["--eval", "--print"], valued: "rC", module: "" }],
  [/^ruby$/, { language: "ruby", code: "e", valued: "rICEF" }],
  [/^perl[\d.]*$/, { language: "perl", code: "eE", valued: "IMmCx" }],
  [/^php[\d.]*$/, { language: "php", code: "r", valued: "cdfz" }],
];

const AWKS = new Set(["awk", "gawk", "nawk", "mawk"]);

/** awk's program is its first operand (after -F SEP, -v VAR=VAL); with -f it is in a file guard does not read. */
function awkSource(program: string, args: Arg[]): CodeSource | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.unresolved) return { language: "awk", code: a, stdin: false, flag: program };
    if (a.value === "--") return args[i + 1] ? { language: "awk", code: args[i + 1], stdin: false, flag: program } : undefined;
    if (/^-[fF]$|^--file$|^-v$|^--assign$|^--field-separator$/.test(a.value)) {
      if (a.value === "-f" || a.value === "--file") return undefined;
      i++;
      continue;
    }
    if (/^-f./.test(a.value)) return undefined;
    if (a.value.startsWith("-") && a.value !== "-") continue;
    return { language: "awk", code: a, stdin: false, flag: program };
  }
  return undefined;
}

/** The code an interpreter invocation runs, when it is code guard can read (not a script file). */
export function codeSource(program: string, args: Arg[]): CodeSource | undefined {
  if (AWKS.has(program)) return awkSource(program, args);
  if (program === "deno") {
    if (args[0]?.value !== "eval") return undefined;
    const code = args.slice(1).find((a) => a.unresolved || !a.value.startsWith("-"));
    return code ? { language: "deno", code, stdin: false, flag: "deno eval" } : undefined;
  }
  const spec = RUNNERS.find(([re]) => re.test(program))?.[1];
  if (!spec) return undefined;
  const pieces: Arg[] = [];
  let flag = "";
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.unresolved) return pieces.length ? { language: spec.language, code: a, stdin: false, flag } : undefined;
    const s = a.value;
    if (s === "--" || s === "-") break;
    if (s.startsWith("--")) {
      const [name, value] = s.includes("=") ? [s.slice(0, s.indexOf("=")), s.slice(s.indexOf("=") + 1)] : [s, undefined];
      if (spec.longCode?.includes(name!)) {
        const code = value !== undefined ? { value } : args[++i];
        if (!code) return undefined;
        pieces.push(code);
        flag = `${program} ${name}`;
      }
      continue;
    }
    if (!s.startsWith("-")) {
      if (pieces.length) break; // arguments to the code
      return undefined; // a script file: what it does is not on the command line
    }
    for (let j = 1; j < s.length; j++) {
      const letter = s[j]!;
      if (spec.module?.includes(letter)) return undefined;
      const isCode = spec.code.includes(letter);
      if (!isCode && !spec.valued.includes(letter)) continue;
      const rest = s.slice(j + 1);
      const value = rest && ![...rest].every((c) => spec.code.includes(c)) ? { value: rest } : args[++i];
      if (isCode) {
        if (!value) return undefined;
        pieces.push(value);
        flag = `${program} -${letter}`;
      }
      break;
    }
  }
  if (pieces.length === 0) return { language: spec.language, stdin: true, flag: `${program} (stdin)` };
  const bad = pieces.find((p) => p.unresolved);
  return { language: spec.language, code: bad ?? { value: pieces.map((p) => p.value).join("\n") }, stdin: false, flag };
}
