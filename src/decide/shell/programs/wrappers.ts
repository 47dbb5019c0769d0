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
  /** A lone `-` is one of the wrapper's options (`env -` is `env -i`), not the command. */
  dashOption?: boolean;
}

export const WRAPPERS: Record<string, WrapperSpec> = {
  sudo: { shape: { short: "ugCDhprtUTR", long: ["--user", "--group", "--chdir", "--prompt", "--role", "--type", "--other-user", "--host", "--close-from"] } },
  doas: { shape: { short: "uC" } },
  env: { shape: { short: "uCSP", long: ["--unset", "--chdir", "--split-string"] }, assignments: true, dashOption: true },
  nice: { shape: { short: "n", long: ["--adjustment"] } },
  nohup: { shape: {} },
  time: { shape: { short: "fo", long: ["--format", "--output"] } },
  command: { shape: {} },
  builtin: { shape: {} },
  exec: { shape: { short: "a" } },
  stdbuf: { shape: { short: "ioe", long: ["--input", "--output", "--error"] } },
  ionice: { shape: { short: "cnp", long: ["--class", "--classdata", "--pid"] } },
  timeout: { shape: { short: "sk", long: ["--signal", "--kill-after"] }, positional: 1 },
  // GNU -i, -e, -l and --replace, --eof, --max-lines take a value only attached (`-i{}`, `--replace=X`); BSD -J, -R, -S take one.
  xargs: {
    shape: { short: "adEILnPsJRS", long: ["--arg-file", "--delimiter", "--max-args", "--max-procs", "--max-chars", "--process-slot-var"] },
  },
  /** busybox APPLET ARGS runs the applet (`busybox rm -rf x` is rm). */
  busybox: { shape: {} },
  /** GNU parallel: the command comes before `:::`; its operands come from the inputs (like xargs, `{}` replaced). */
  parallel: { shape: { short: "jNnLSdIEa", long: ["--jobs", "--max-args", "--sshlogin", "--delimiter", "--arg-file", "--results", "--joblog", "--timeout", "--tmpdir", "--workdir"] } },
  /** watch runs its words through `sh -c` (as one script) unless -x. */
  watch: { shape: { short: "nq", long: ["--interval", "--differences", "--equexit"] } },
};

const INPUT_SEPARATORS = new Set([":::", "::::", ":::+", "::::+"]);

export const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "ash", "mksh"]);

/** A word as the shell would need it written to come back as that one word. */
const quoteWord = (w: string) => (/^[A-Za-z0-9_\/.,:=+@%^-]+$/.test(w) ? w : `'${w.replaceAll("'", `'\\''`)}'`);

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
    if (!a.value.startsWith("-") || (a.value === "-" && !spec.dashOption)) break;
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
  /** parallel's literal inputs (after `:::`); undefined when they come from stdin or a file. */
  let inputs: Arg[] | undefined;
  for (let guard = 0; guard < 16; guard++) {
    const head = out.argv[0];
    if (!head || head.unresolved) return out;
    const written = head.value.split(/[\\/]/).pop()!;
    // A case-insensitive file system (macOS) runs /bin/rm for `RM`, and Git for Windows runs git for `git.exe`:
    // such names are read as the program they run.
    const name = written.toLowerCase().replace(/\.exe$/, "");
    if (name !== written) out.argv = [{ ...head, value: name }, ...out.argv.slice(1)];
    const args = out.argv.slice(1);
    if (SHELLS.has(name)) {
      const c = args.findIndex((a) => !a.unresolved && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(a.value));
      if (c < 0 || args.slice(0, c).some((a) => a.unresolved || !a.value.startsWith("-"))) return out;
      out.via.push(`${name} -c`);
      const script = args[c + 1]?.value === "--" ? args[c + 2] : args[c + 1];
      // From xargs or parallel the script may be the input itself (`xargs bash -c`, `xargs -I{} bash -c {}`).
      const fromInput = out.stdinList && (!script || (out.replace !== undefined && !script.unresolved && script.value.includes(out.replace)));
      out.script = fromInput ? { value: script?.value ?? "", unresolved: "stdin" } : (script ?? { value: "" });
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
    // Words xargs (or parallel, from stdin or an option-like input) appends to find become part of its
    // expression (`-delete` among them): unreadable.
    if (name === "find" && out.stdinList && (out.via.includes("xargs") || inputs === undefined || inputs.some((a) => a.unresolved || a.value.startsWith("-")))) return { ...out, argv: [], script: { value: "", unresolved: "stdin" } };
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
        // The split string comes first, then the words after it: `env -S 'PATH=/usr/bin' git reset --hard`.
        const split = [...(p.values.get("-S") ?? []), ...(p.values.get("--split-string") ?? [])];
        const bad = rest.find((a) => a.unresolved);
        out.script = bad ?? { value: [...split, ...rest.map((a) => quoteWord(a.value))].join(" ") };
        out.argv = [];
        return out;
      }
    }
    if (name === "xargs") {
      out.stdinList = true;
      const p = parseOptions(opts, spec.shape);
      const r = p.values.get("-I") ?? p.values.get("-J") ?? p.values.get("--replace");
      const gnuI = opts.find((a) => /^-i/.test(a.value));
      if (r?.length) out.replace = r[0] || "{}";
      else if (gnuI || p.flags.has("--replace")) out.replace = gnuI?.value.slice(2) || "{}";
      if (rest.length === 0) rest.push({ value: "echo" });
    }
    if (name === "parallel") {
      out.stdinList = true;
      out.replace = "{}";
      const cut = rest.findIndex((a) => INPUT_SEPARATORS.has(a.value));
      inputs = cut >= 0 && rest[cut]!.value.startsWith(":::") && !rest[cut]!.value.startsWith("::::") ? rest.slice(cut + 1) : undefined;
      const command = cut < 0 ? rest : rest.slice(0, cut);
      // No command: the inputs are the commands, read as scripts when they are all words after one `:::`.
      if (command.length === 0) {
        const inputs = rest.slice(cut + 1);
        const literal = cut >= 0 && !inputs.some((a) => a.unresolved || INPUT_SEPARATORS.has(a.value));
        out.script = literal ? { value: inputs.map((a) => a.value).join("\n") } : { value: rest.map((a) => a.value).join(" "), unresolved: "stdin" };
        out.argv = [];
        return out;
      }
      out.argv = command;
      continue;
    }
    if (name === "watch") {
      out.script = rest.find((a) => a.unresolved) ?? { value: rest.map((a) => a.value).join(" ") };
      out.argv = [];
      return out;
    }
    // A wrapper run by xargs or parallel with no command of its own gets it from the input.
    if (rest.length === 0 && out.stdinList && name !== "xargs") return { ...out, argv: [], script: { value: "", unresolved: "stdin" } };
    if (name === "sudo" && rest.length === 0) return { ...out, argv: [] };
    out.argv = rest;
  }
  return out;
}
