import type { Arg, InterpretContext, Interpreted, Interpreter } from "./args.ts";

/**
 * Stream editors that can rewrite their input files in place: `sed -i`, `perl -i`, `gawk -i inplace`.
 * With the in-place switch, every input file is an overwrite target (its content is replaced where it
 * stands); without it they only read files and print.
 *
 * Each parses its own options because `-i` takes an optional suffix glued to it (`sed -i.bak`,
 * `perl -pi.orig`), which getopt-style parsing would read as more flags.
 */

interface EditorArgs {
  inPlace: boolean;
  /** The program text came from an option (`-e`, `-f`, `--expression`), so every operand is a file. */
  scriptGiven: boolean;
  operands: Arg[];
}

/** The files an in-place run rewrites: every operand after the program text (all of them when an option gave it). */
function inPlace(a: EditorArgs, ctx: InterpretContext): Interpreted {
  if (!a.inPlace) return { effects: [], unknownEffect: false };
  const files = a.scriptGiven ? a.operands : a.operands.slice(1);
  // With no file operands the files come from stdin (`xargs sed -i`): the effect stays, so that is seen.
  return { effects: [{ kind: "overwrite", targets: files.map(ctx.resolve) }], unknownEffect: false };
}

/**
 * Walk an editor's words: operands (and every word after `--`, or after the first operand when
 * `stopAtOperand`) are collected; each option word goes to `option` with the word after it, and
 * `option` returns how many words it used (1, or 2 when it took the next word as its value).
 */
function scan(args: Arg[], stopAtOperand: boolean, option: (word: string, next: Arg | undefined, out: EditorArgs) => 1 | 2, isOperand: (a: Arg) => boolean = () => true): EditorArgs {
  const out: EditorArgs = { inPlace: false, scriptGiven: false, operands: [] };
  let done = false;
  for (let i = 0; i < args.length; ) {
    const a = args[i]!;
    if (done || a.unresolved || a.value === "-" || !a.value.startsWith("-")) {
      if (isOperand(a)) out.operands.push(a);
      if (stopAtOperand) done = true;
      i++;
    } else if (a.value === "--") {
      done = true;
      i++;
    } else i += option(a.value, args[i + 1], out);
  }
  return out;
}

/**
 * GNU and BSD sed. Short options with a value: -e SCRIPT, -f FILE, -l N; -i[SUFFIX] (glued) and
 * --in-place[=SUFFIX]; BSD's `-i ''` (an empty suffix as its own word) is read as a suffix.
 */
export const readSed = (args: Arg[]): EditorArgs =>
  scan(args, false, (s, next, out) => {
    if (s.startsWith("--")) {
      const name = s.split("=")[0]!;
      if (name === "--in-place") out.inPlace = true;
      if (name === "--expression" || name === "--file") out.scriptGiven = true;
      return (name === "--expression" || name === "--file" || name === "--line-length") && !s.includes("=") ? 2 : 1;
    }
    for (let j = 1; j < s.length; j++) {
      const c = s[j]!;
      if (c === "i") {
        out.inPlace = true;
        // The rest of the word is the backup suffix; BSD sed takes it as the next word, usually ''.
        return j === s.length - 1 && next?.value === "" && !next.unresolved ? 2 : 1;
      }
      if (c === "e" || c === "f" || c === "l") {
        if (c !== "l") out.scriptGiven = true;
        return j === s.length - 1 ? 2 : 1;
      }
    }
    return 1;
  });

/**
 * perl: -i[EXT] anywhere in a switch cluster (`-pi`, `-i.bak`, `-pie` = -p, -i with suffix "e"); -e/-E
 * CODE. perl stops reading switches at its first operand (the script, unless -e gave the code).
 */
export const readPerl = (args: Arg[]): EditorArgs =>
  scan(args, true, (s, _next, out) => {
    if (s.startsWith("--")) return 1;
    for (let j = 1; j < s.length; j++) {
      const c = s[j]!;
      if (c === "i") {
        out.inPlace = true;
        return 1;
      }
      if (c === "e" || c === "E") {
        out.scriptGiven = true;
        return j === s.length - 1 ? 2 : 1;
      }
      // Switches whose value is the rest of the word (-I, -M, -m also the next word when nothing follows).
      if ("IMmxdDCF".includes(c)) return j === s.length - 1 && "IMm".includes(c) ? 2 : 1;
      // -0 and -l take glued digits only.
      if (c === "0" || c === "l") while (j + 1 < s.length && /[0-9a-fA-Fx]/.test(s[j + 1]!)) j++;
    }
    return 1;
  });

const AWK_VALUED = new Set(["-i", "--include", "-f", "--file", "-v", "--assign", "-F", "--field-separator", "-l", "--load", "-E", "--exec"]);

/**
 * gawk: `-i inplace` / `--include=inplace` loads the in-place extension; -f FILE, -v VAR=VAL, -F FS take
 * values; `var=value` operands are assignments, not files.
 */
export const readAwk = (args: Arg[]): EditorArgs =>
  scan(
    args,
    false,
    (s, next, out) => {
      const long = s.startsWith("--");
      const eq = s.indexOf("=");
      const name = long ? (eq < 0 ? s : s.slice(0, eq)) : s.slice(0, 2);
      const glued = long ? (eq < 0 ? undefined : s.slice(eq + 1)) : s.length > 2 ? s.slice(2) : undefined;
      const value = glued ?? next?.value;
      if ((name === "-i" || name === "--include") && (value === "inplace" || value === "inplace.awk")) out.inPlace = true;
      if (name === "-f" || name === "--file" || name === "-E" || name === "--exec") out.scriptGiven = true;
      return AWK_VALUED.has(name) && glued === undefined ? 2 : 1;
    },
    (a) => a.unresolved !== undefined || !/^[A-Za-z_][A-Za-z0-9_]*=/.test(a.value),
  );

export const sed: Interpreter = (args, ctx) => inPlace(readSed(args), ctx);
/** perl is a general-purpose language: whatever else its code does to files stays unknown. */
export const perl: Interpreter = (args, ctx) => ({ ...inPlace(readPerl(args), ctx), unknownEffect: true });
export const awk: Interpreter = (args, ctx) => inPlace(readAwk(args), ctx);
