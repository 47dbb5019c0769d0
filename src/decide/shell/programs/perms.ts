import type { Arg, Interpreter } from "./args.ts";

/** Options of chmod/chown/chgrp that take no value (GNU and BSD spellings). */
const FLAGS = new Set(["-R", "--recursive", "-v", "--verbose", "-c", "--changes", "-f", "--silent", "--quiet", "-h", "--no-dereference", "--dereference", "-H", "-L", "-P", "--preserve-root", "--no-preserve-root"]);

/**
 * chmod MODE FILE…, chown OWNER[:GROUP] FILE…, chgrp GROUP FILE…: the operands' modes or owners change.
 * A chmod mode may itself start with `-` (`chmod -x f`); `--reference=F` replaces the mode operand.
 */
export const chmodLike: Interpreter = (args, ctx) => {
  let recursive = false;
  let needsSpec = true;
  const operands: Arg[] = [];
  let done = false;
  for (const a of args) {
    if (!done && !a.unresolved) {
      if (a.value === "--") {
        done = true;
        continue;
      }
      if (a.value.startsWith("--reference")) {
        needsSpec = false;
        continue;
      }
      if (FLAGS.has(a.value) || /^-[RvcfhHLP]+$/.test(a.value)) {
        if (a.value === "--recursive" || (a.value.startsWith("-") && !a.value.startsWith("--") && a.value.includes("R"))) recursive = true;
        continue;
      }
    }
    operands.push(a);
  }
  const files = needsSpec ? operands.slice(1) : operands;
  return { effects: [{ kind: "permissions", targets: files.map(ctx.resolve), recursive }], unknownEffect: false };
};

/** setfacl [-R] -m|-x|-M|-X|--set ACL FILE…: the operands' access lists change. */
export const setfacl: Interpreter = (args, ctx) => {
  let recursive = false;
  const files: Arg[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.unresolved || !a.value.startsWith("-")) {
      files.push(a);
      continue;
    }
    if (a.value === "-R" || a.value === "--recursive") recursive = true;
    else if (/^-[mxMX]$/.test(a.value) || a.value === "--set" || a.value === "--set-file" || a.value === "--modify" || a.value === "--remove") i++;
    else if (/^-[a-zA-Z]*R/.test(a.value) && !a.value.startsWith("--")) recursive = true;
  }
  return { effects: [{ kind: "permissions", targets: files.map(ctx.resolve), recursive }], unknownEffect: false };
};
