import { basename, dirname, isAbsolute, join } from "node:path";
import type { Target } from "../types.ts";
import { has, parseOptions, type Arg, type Effect, type InterpretContext, type Interpreted, type Interpreter } from "./args.ts";

const done = (effects: Effect[], unknownEffect = false): Interpreted => ({ effects, unknownEffect });

/** rm, rmdir, unlink: every operand disappears. */
export const remove: Interpreter = (args, ctx) => {
  const p = parseOptions(args, { long: [] });
  return done([{ kind: "delete", targets: p.operands.map(ctx.resolve) }]);
};

/** shred overwrites its operands; with -u it also removes them. */
export const shred: Interpreter = (args, ctx) => {
  const p = parseOptions(args, { short: "ns", long: ["--iterations", "--size", "--random-source"] });
  return done([{ kind: has(p, "-u", "--remove") ? "delete" : "overwrite", targets: p.operands.map(ctx.resolve) }]);
};

export const truncate: Interpreter = (args, ctx) => {
  const p = parseOptions(args, { short: "sr", long: ["--size", "--reference"] });
  return done([{ kind: "overwrite", targets: p.operands.map(ctx.resolve) }]);
};

/** Where `src` lands when copied or moved to `dest` (into it, when it is a directory). */
function landing(src: Arg, dest: Target, ctx: InterpretContext, intoDir: boolean): Target {
  if (dest.unresolved) return dest;
  if (intoDir) return ctx.resolve({ value: join(dest.raw, basename(src.value.replace(/\/+$/, ""))) });
  return dest;
}

const CP_SHAPE = { short: "tS", long: ["--target-directory", "--suffix"] };

function transfer(args: Arg[], ctx: InterpretContext, moves: boolean, shape = CP_SHAPE): Interpreted {
  const p = parseOptions(args, shape);
  const noClobber = has(p, "-n", "--no-clobber", "--update=none", "-b", "--backup");
  let sources = p.operands;
  let destArg: Arg | undefined;
  const dirOpt = p.values.get("-t") ?? p.values.get("--target-directory");
  if (dirOpt?.length) destArg = { value: dirOpt[dirOpt.length - 1]! };
  else {
    destArg = sources[sources.length - 1];
    sources = sources.slice(0, -1);
  }
  const effects: Effect[] = [];
  if (moves) effects.push({ kind: "move-source", targets: sources.map(ctx.resolve) });
  if (destArg && sources.length > 0 && !noClobber) {
    const dest = ctx.resolve(destArg);
    const intoDir = !has(p, "-T", "--no-target-directory") && (dirOpt !== undefined || (dest.exists === true && dest.isDir === true) || sources.length > 1);
    const over = sources.map((s) => (s.unresolved ? { raw: s.value, unresolved: s.unresolved } : landing(s, dest, ctx, intoDir)));
    const lost = over.filter((t) => t.unresolved || t.exists);
    if (lost.length) effects.push({ kind: "overwrite", targets: lost });
    // New names count too: a copy that creates a file in .guard/, .git or a system folder changes them.
    const fresh = over.filter((t) => !t.unresolved && !t.exists);
    if (fresh.length) effects.push({ kind: "create", targets: fresh });
  }
  return done(effects, true);
}

export const mv: Interpreter = (args, ctx) => transfer(args, ctx, true);
export const cp: Interpreter = (args, ctx) => transfer(args, ctx, false);

/**
 * ln makes a new name; -f replaces an existing destination (without -f, ln refuses). A link to something
 * in .guard/ or .git (a symlink, dangling or not, or a hard link) is a way to change it later, even in the
 * same line, so it counts as changing it.
 */
export const ln: Interpreter = (args, ctx) => {
  const p = parseOptions(args, { short: "tS", long: ["--target-directory", "--suffix"] });
  const force = has(p, "-f", "--force");
  const made = transfer(force ? args.filter((a) => a.value !== "-f" && a.value !== "--force") : args, ctx, false);
  const effects = force ? made.effects : made.effects.filter((e) => e.kind === "create");
  const into = linkTargets(p, ctx).filter((t) => t.place === "guard-state" || t.place === "git-dir");
  if (into.length) effects.push({ kind: "create", targets: into });
  return done(effects, true);
};

/** What the links point to: a symlink's text is read from the link's folder, a hard link's source from the cwd. */
function linkTargets(p: ReturnType<typeof parseOptions>, ctx: InterpretContext): Target[] {
  const symbolic = has(p, "-s", "--symbolic");
  const dirOpt = p.values.get("-t") ?? p.values.get("--target-directory");
  const sources = dirOpt?.length ? p.operands : p.operands.slice(0, -1);
  const dest = dirOpt?.length ? { value: dirOpt[dirOpt.length - 1]! } : p.operands.at(-1);
  if (!dest || dest.unresolved) return sources.map(ctx.resolve);
  const d = ctx.resolve(dest);
  const linkDir = dirOpt?.length || sources.length > 1 || (d.exists && d.isDir) ? dest.value : dirname(dest.value);
  return sources.map((s) => (s.unresolved || !symbolic || isAbsolute(s.value) ? ctx.resolve(s) : ctx.resolve({ value: join(linkDir, s.value) })));
}

/** tee truncates its files unless -a. */
export const tee: Interpreter = (args, ctx) => {
  const p = parseOptions(args);
  const targets = p.operands.map(ctx.resolve);
  if (has(p, "-a", "--append")) return done([{ kind: "create", targets }]);
  return done([{ kind: "overwrite", targets: targets.filter((t) => t.unresolved || t.exists) }, { kind: "create", targets: targets.filter((t) => !t.unresolved && !t.exists) }]);
};

/** dd of=FILE overwrites FILE. */
export const dd: Interpreter = (args, ctx) => {
  const out = args.filter((a) => a.unresolved || a.value.startsWith("of="));
  const targets = out.map((a) => (a.unresolved ? ctx.resolve(a) : ctx.resolve({ value: a.value.slice(3) })));
  return done([{ kind: "overwrite", targets }]);
};

export const create: Interpreter = (args, ctx) => {
  const p = parseOptions(args, { short: "mdrtZ", long: ["--mode", "--date", "--reference", "--context"] });
  return done([{ kind: "create", targets: p.operands.map(ctx.resolve) }]);
};

const RSYNC_VALUE_LONG = [
  "--exclude", "--include", "--filter", "--rsh", "--temp-dir", "--files-from", "--log-file", "--password-file", "--backup-dir",
  "--compare-dest", "--link-dest", "--copy-dest", "--chmod", "--chown", "--exclude-from", "--include-from", "--rsync-path", "--partial-dir",
];

/** rsync --delete* removes from the destination what the source lacks; --remove-source-files removes sources. */
export const rsync: Interpreter = (args, ctx) => {
  const p = parseOptions(args, { short: "efTBM", long: RSYNC_VALUE_LONG });
  const ops = p.operands;
  const effects: Effect[] = [];
  const remoteOr = (a: Arg): Target => (/^[^/.][^/]*:/.test(a.value) && !a.unresolved ? { raw: a.value, path: a.value, place: "outside", exists: true } : ctx.resolve(a));
  const deleting = [...p.flags].some((f) => f === "--del" || f.startsWith("--delete"));
  if (deleting && ops.length >= 2) effects.push({ kind: "delete", targets: [remoteOr(ops[ops.length - 1]!)] });
  if (has(p, "--remove-source-files")) effects.push({ kind: "delete", targets: ops.slice(0, -1).map(remoteOr) });
  return done(effects, true);
};

export const disk: Interpreter = (args, ctx) => ({ effects: [{ kind: "disk", targets: parseOptions(args).operands.map(ctx.resolve) }], unknownEffect: true });

/**
 * A downloader's output files: existing ones are overwritten, missing ones created. Other files it may
 * write (remote names, header dumps, cookie jars, recursive fetches) stay an unknown effect.
 */
function downloads(targets: Target[]): Interpreted {
  return done([{ kind: "overwrite", targets: targets.filter((t) => t.unresolved || t.exists) }, { kind: "create", targets: targets.filter((t) => !t.unresolved && !t.exists) }], true);
}

/** curl -o FILE / --output FILE write FILE (-O names it after the URL: not modeled, the download is new or overwrites). */
export const curl: Interpreter = (args, ctx) => {
  const p = parseOptions(args, { short: "oTdHXuAeFbcKrwxEyY", long: ["--output", "--upload-file", "--data", "--header", "--request", "--user", "--user-agent", "--referer", "--form", "--cookie", "--cookie-jar", "--range", "--write-out", "--proxy", "--config", "--max-time", "--connect-timeout", "--retry", "--cacert", "--cert", "--key"] });
  const out = [...(p.values.get("-o") ?? []), ...(p.values.get("--output") ?? [])].filter((v) => v !== "-");
  return downloads(out.map((value) => ctx.resolve({ value })));
};

/** wget -O FILE / --output-document=FILE writes FILE; without it wget never overwrites (it names the copy file.1). */
export const wget: Interpreter = (args, ctx) => {
  const p = parseOptions(args, { short: "OoaPeUtTwQ", long: ["--output-document", "--output-file", "--append-output", "--directory-prefix", "--user-agent", "--tries", "--timeout", "--wait", "--quota", "--header"] });
  const out = [...(p.values.get("-O") ?? []), ...(p.values.get("--output-document") ?? [])].filter((v) => v !== "-");
  return downloads(out.map((value) => ctx.resolve({ value })));
};

/** install SRC... DEST copies like cp (-d only makes directories). */
export const install: Interpreter = (args, ctx) => {
  const shape = { short: "mogSt", long: ["--mode", "--owner", "--group", "--suffix", "--target-directory", "--strip-program"] };
  const p = parseOptions(args, shape);
  if (has(p, "-d", "--directory")) return done([{ kind: "create", targets: p.operands.map(ctx.resolve) }]);
  return transfer(args, ctx, false, shape);
};
