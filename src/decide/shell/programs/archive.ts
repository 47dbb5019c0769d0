import { join } from "node:path";
import type { Target } from "../types.ts";
import type { Arg, InterpretContext, Interpreted, Interpreter } from "./args.ts";

/** tar letters that take a value, in the order their values follow an old-style cluster (`xvf a.tar`). */
const TAR_VALUED = "fCbTXgKNVLH";
const TAR_LONG_VALUED = ["--file", "--directory", "--exclude", "--files-from", "--exclude-from", "--transform", "--strip-components", "--use-compress-program", "-I"];
const NO_CLOBBER = ["-k", "--keep-old-files", "--skip-old-files", "--keep-newer-files", "-O", "--to-stdout", "--to-command"];

/** An extraction guard cannot list: what it writes is unknown (ASK). */
const unlisted = (why: string): Interpreted => ({ effects: [{ kind: "archive", targets: [{ raw: why, unresolved: "expansion" }] }], unknownEffect: true });

/**
 * The files an extraction would replace: the archive is listed first (read-only), and every member that
 * exists already under the destination is an overwrite (RELOCATE copies it before the command runs).
 */
function extraction(list: string[] | undefined, dest: Arg | undefined, ctx: InterpretContext, archive: string): Interpreted {
  if (!list) return unlisted(archive);
  const dir = dest?.value ?? ".";
  const replaced: Target[] = [];
  const created: Target[] = [];
  for (const member of list) {
    if (!member || member.endsWith("/")) continue;
    const t = ctx.resolve({ value: join(dir, member.replace(/^\/+/, "")) });
    if (t.unresolved || (t.exists && !t.isDir)) replaced.push(t);
    else if (!t.exists) created.push(t);
  }
  const effects = [...(replaced.length ? [{ kind: "overwrite" as const, targets: replaced }] : []), ...(created.length ? [{ kind: "create" as const, targets: created }] : [])];
  return { effects, unknownEffect: true };
}

function listing(argv: string[], cwd: string | undefined): string[] | undefined {
  if (!cwd) return undefined;
  const p = Bun.spawnSync(argv, { cwd, stdout: "pipe", stderr: "ignore", timeout: 5000 });
  if (p.exitCode !== 0) return undefined;
  return p.stdout.toString().split("\n").filter(Boolean);
}

export const tar: Interpreter = (args, ctx) => {
  let extract = false;
  let file: Arg | undefined;
  let dir: Arg | undefined;
  let keep = false;
  const pending: string[] = []; // value-taking letters of a cluster, waiting for their words
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.unresolved) {
      const letter = pending.shift();
      if (letter === "f") file = a;
      else if (letter === "C") dir = a;
      continue;
    }
    const s = a.value;
    if (pending.length && !s.startsWith("-")) {
      const letter = pending.shift();
      if (letter === "f") file = a;
      else if (letter === "C") dir = a;
      continue;
    }
    if (s.startsWith("--")) {
      const [name, value] = s.includes("=") ? [s.slice(0, s.indexOf("=")), s.slice(s.indexOf("=") + 1)] : [s, undefined];
      if (name === "--extract" || name === "--get") extract = true;
      if (NO_CLOBBER.includes(name!)) keep = true;
      if (TAR_LONG_VALUED.includes(name!)) {
        const v = value !== undefined ? { value } : args[++i];
        if (name === "--file") file = v;
        if (name === "--directory") dir = v;
      }
      continue;
    }
    const cluster = s.startsWith("-") ? s.slice(1) : i === 0 ? s : undefined;
    if (cluster === undefined) continue; // a member name
    if (NO_CLOBBER.includes(`-${cluster}`)) keep = true;
    for (let j = 0; j < cluster.length; j++) {
      const c = cluster[j]!;
      if (c === "x") extract = true;
      if (c === "k" || c === "O") keep = true;
      if (!TAR_VALUED.includes(c)) continue;
      // `-fa.tar`: the rest of a dashed cluster is the value; otherwise the next words, in order.
      if (s.startsWith("-") && j < cluster.length - 1) {
        const v = { value: cluster.slice(j + 1) };
        if (c === "f") file = v;
        if (c === "C") dir = v;
        break;
      }
      pending.push(c);
    }
  }
  if (!extract || keep) return { effects: [], unknownEffect: extract };
  if (!file || file.unresolved || file.value === "-") return unlisted(file?.value === "-" || !file ? "an archive read from stdin" : `${file.value}`);
  if (dir?.unresolved) return unlisted(dir.value);
  return extraction(listing(["tar", "-tf", file.value], ctx.cwd), dir, ctx, file.value);
};

export const unzip: Interpreter = (args, ctx) => {
  let file: Arg | undefined;
  let dir: Arg | undefined;
  let listOnly = false;
  let never = false;
  let excluding = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.unresolved && a.value === "-d") {
      dir = args[++i];
      continue;
    }
    if (!a.unresolved && a.value === "-x") {
      excluding = true;
      continue;
    }
    if (!a.unresolved && a.value.startsWith("-")) {
      if (/[lvtZ]/.test(a.value.slice(1)) || a.value === "-p" || a.value === "-c") listOnly = true;
      if (a.value.slice(1).includes("n")) never = true;
      continue;
    }
    if (!file) file = a;
    else if (excluding) continue;
  }
  if (listOnly || never) return { effects: [], unknownEffect: false };
  if (!file || file.unresolved) return unlisted(file?.value ?? "an archive guard cannot name");
  if (dir?.unresolved) return unlisted(dir.value);
  return extraction(listing(["unzip", "-Z1", file.value], ctx.cwd), dir, ctx, file.value);
};
