import { parseOptions, type Arg, type OptionShape } from "./args.ts";

/** A wrapper runs another command; peeling it gives that command (and what the wrapper changes). */
export interface Peeled {
  argv: Arg[];
  via: string[];
  /** xargs: the command's extra operands come from stdin. */
  stdinList: boolean;
  /** xargs -I: operands containing this string are replaced by stdin lines. */
  replace?: string;
  /** `sh -c SCRIPT` / `eval`: a script to parse one level down. */
  script?: Arg;
  /** env -C DIR */
  chdir?: Arg;
}

interface WrapperSpec {
  shape: OptionShape;
  /** Positional arguments the wrapper itself takes before the command (timeout's DURATION). */
  positional?: number;
  /** Leading `NAME=value` words belong to the wrapper (env). */
  assignments?: boolean;
}

export const WRAPPERS: Record<string, WrapperSpec> = {
  sudo: { shape: { short: "ugCDhprtUTR", long: ["--user", "--group", "--chdir", "--prompt", "--role", "--type", "--other-user", "--host", "--close-from"] } },
  doas: { shape: { short: "uC" } },
  env: { shape: { short: "uCS", long: ["--unset", "--chdir", "--split-string"] }, assignments: true },
  nice: { shape: { short: "n", long: ["--adjustment"] } },
  nohup: { shape: {} },
  time: { shape: { short: "fo", long: ["--format", "--output"] } },
  command: { shape: {} },
  builtin: { shape: {} },
  exec: { shape: { short: "a" } },
  stdbuf: { shape: { short: "ioe", long: ["--input", "--output", "--error"] } },
  ionice: { shape: { short: "cnp", long: ["--class", "--classdata", "--pid"] } },
  timeout: { shape: { short: "sk", long: ["--signal", "--kill-after"] }, positional: 1 },
  xargs: {
    shape: { short: "adEeIiLlnPs", long: ["--arg-file", "--delimiter", "--eof", "--replace", "--max-lines", "--max-args", "--max-procs", "--max-chars", "--process-slot-var"] },
  },
};

export const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "ash", "mksh"]);

/** Options end at the first word that does not start with `-` (the wrapped command). */
function splitAtCommand(args: Arg[], spec: WrapperSpec): { opts: Arg[]; rest: Arg[] } {
  let i = 0;
  const opts: Arg[] = [];
  while (i < args.length) {
    const a = args[i]!;
    if (a.unresolved) break;
    if (a.value === "--") {
      i++;
      break;
    }
    if (spec.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(a.value)) {
      i++;
      continue;
    }
    if (!a.value.startsWith("-") || a.value === "-") break;
    opts.push(a);
    const letter = a.value.length === 2 && !a.value.startsWith("--") ? a.value[1]! : "";
    const long = a.value.startsWith("--") && !a.value.includes("=") && spec.shape.long?.includes(a.value);
    if ((letter && spec.shape.short?.includes(letter)) || long) opts.push(args[++i]!);
    i++;
  }
  return { opts: opts.filter(Boolean), rest: args.slice(i + (spec.positional ?? 0)) };
}

/** Peel every wrapper off the front of argv (`sudo env FOO=1 timeout 5 xargs rm` → `rm`). */
export function peel(argv: Arg[]): Peeled {
  const out: Peeled = { argv, via: [], stdinList: false };
  for (let guard = 0; guard < 16; guard++) {
    const head = out.argv[0];
    if (!head || head.unresolved) return out;
    const name = head.value.split("/").pop()!;
    const args = out.argv.slice(1);
    if (SHELLS.has(name)) {
      const c = args.findIndex((a) => !a.unresolved && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(a.value));
      if (c < 0 || args.slice(0, c).some((a) => a.unresolved || !a.value.startsWith("-"))) return out;
      out.via.push(`${name} -c`);
      out.script = args[c + 1] ?? { value: "" };
      out.argv = [];
      return out;
    }
    if (name === "eval") {
      out.via.push("eval");
      const bad = args.find((a) => a.unresolved);
      out.script = bad ?? { value: args.map((a) => a.value).join(" ") };
      out.argv = [];
      return out;
    }
    const spec = WRAPPERS[name];
    if (!spec) return out;
    if (name === "command" && args.some((a) => a.value === "-v" || a.value === "-V")) return out;
    const { opts, rest } = splitAtCommand(args, spec);
    out.via.push(name);
    if (name === "env") {
      const p = parseOptions(opts, spec.shape);
      const dir = p.values.get("-C") ?? p.values.get("--chdir");
      if (dir?.length) out.chdir = { value: dir[dir.length - 1]! };
      if (p.flags.has("-S") || p.flags.has("--split-string")) {
        out.script = { value: [...(p.values.get("-S") ?? []), ...(p.values.get("--split-string") ?? [])].join(" ") };
        out.argv = [];
        return out;
      }
    }
    if (name === "xargs") {
      out.stdinList = true;
      const p = parseOptions(opts, spec.shape);
      const r = p.values.get("-I") ?? p.values.get("--replace");
      if (r?.length) out.replace = r[0];
      if (rest.length === 0) rest.push({ value: "echo" });
    }
    if (name === "sudo" && rest.length === 0) return { ...out, argv: [] };
    out.argv = rest;
  }
  return out;
}
