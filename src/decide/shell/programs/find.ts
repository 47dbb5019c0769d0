import type { Target } from "../types.ts";
import type { Arg, Interpreter } from "./args.ts";

const DESTRUCTIVE_EXEC = new Set(["rm", "rmdir", "unlink", "shred"]);
/** -exec of these runs commands guard cannot see: treat the matches as undeterminable deletions. */
const OPAQUE_EXEC = new Set(["sh", "bash", "zsh", "dash", "ksh", "xargs", "env", "sudo", "eval", "mv", "truncate", "dd", "tee", "cp", "git", "busybox", "command", "nice", "timeout", "parallel"]);
const READ_ONLY_EXEC = new Set(["grep", "egrep", "fgrep", "rg", "cat", "head", "tail", "wc", "ls", "file", "stat", "echo", "printf", "sha256sum", "sha1sum", "md5sum", "du", "test", "[", "basename", "dirname", "realpath", "readlink"]);
const TEST_WITH_VALUE = new Set([
  "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-regextype", "-type", "-xtype", "-size",
  "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-newer", "-anewer", "-cnewer", "-perm", "-user", "-group", "-uid", "-gid",
  "-maxdepth", "-mindepth", "-links", "-inum", "-samefile", "-lname", "-ilname", "-used", "-fstype", "-context",
]);
const ZERO_ARG = new Set([
  "-empty", "-true", "-false", "-readable", "-writable", "-executable", "-nouser", "-nogroup", "-depth", "-mount", "-xdev", "-noleaf",
  "-daystart", "-follow", "-not", "!", "-a", "-and", "-o", "-or", "(", ")", ",", "-print", "-print0", "-prune", "-quit", "-ls", "-nowarn", "-warn", "-ignore_readdir_race",
]);

/**
 * find with -delete or `-exec rm`: the targets are whatever the expression matches. When the expression
 * only uses side-effect-free tests, guard runs the same find with the deleting action replaced by -print0
 * (a read-only walk) to learn the exact targets; anything else is undeterminable.
 */
export const find: Interpreter = (args, ctx) => {
  let i = 0;
  const globalOpts: string[] = [];
  while (i < args.length && /^-[HLP]$|^-O\d$|^-D$/.test(args[i]!.value) && !args[i]!.unresolved) {
    globalOpts.push(args[i]!.value);
    if (args[i]!.value === "-D") globalOpts.push(args[++i]?.value ?? "");
    i++;
  }
  const starts: Arg[] = [];
  while (i < args.length && (args[i]!.unresolved || !/^[-(!)]/.test(args[i]!.value) || args[i]!.value === "-")) starts.push(args[i++]!);
  const expr = args.slice(i);

  let deletes = false;
  let other = false;
  let otherReadOnly = true;
  let pure = true;
  const rewritten: string[] = [];
  for (let j = 0; j < expr.length; j++) {
    const a = expr[j]!;
    if (a.unresolved) {
      pure = false;
      break;
    }
    const t = a.value;
    if (t === "-delete") {
      deletes = true;
      rewritten.push("-print0");
    } else if (t === "-exec" || t === "-execdir" || t === "-ok" || t === "-okdir") {
      const end = expr.findIndex((x, k) => k > j && (x.value === ";" || x.value === "+"));
      if (end < 0) {
        pure = false;
        break;
      }
      const cmd = expr.slice(j + 1, end);
      const prog = cmd[0]?.value.split("/").pop() ?? "";
      if (cmd.some((c) => c.unresolved)) pure = false;
      if (OPAQUE_EXEC.has(prog)) {
        deletes = true;
        pure = false;
      } else if (DESTRUCTIVE_EXEC.has(prog)) {
        deletes = true;
        rewritten.push("-print0");
      } else {
        other = true;
        if (!READ_ONLY_EXEC.has(prog)) otherReadOnly = false;
        pure = false;
      }
      j = end;
    } else if (TEST_WITH_VALUE.has(t) || t === "-newermt" || /^-newer[aBcmt]{2}$/.test(t)) {
      rewritten.push(t, expr[++j]?.value ?? "");
    } else if (ZERO_ARG.has(t)) rewritten.push(t);
    else pure = false; // -fprint, -printf, unknown tests: not modeled
  }

  if (!deletes) return { effects: [], unknownEffect: other && !otherReadOnly };
  const startTargets: Target[] = (starts.length ? starts : [{ value: "." }]).map(ctx.resolve);
  const blocked = startTargets.filter((t) => t.unresolved || (t.place !== "workspace" && t.path !== ctx.root));
  if (blocked.length) return { effects: [{ kind: "delete", targets: blocked }], unknownEffect: true };
  if (!pure || ctx.cwd === undefined) return { effects: [{ kind: "delete", targets: [{ raw: expr.map((e) => e.value).join(" "), unresolved: "find-expression" }] }], unknownEffect: true };

  const proc = Bun.spawnSync(["find", ...globalOpts, ...startTargets.map((t) => t.raw), ...rewritten], {
    cwd: ctx.cwd,
    stdout: "pipe",
    stderr: "ignore",
    timeout: 5000,
  });
  if (proc.exitCode !== 0 && proc.stdout.length === 0)
    return { effects: [{ kind: "delete", targets: [{ raw: "find", unresolved: "find-expression" }] }], unknownEffect: true };
  const found = proc.stdout.toString().split("\0").filter(Boolean);
  return { effects: [{ kind: "delete", targets: found.map((f) => ctx.resolve({ value: f })) }], unknownEffect: true };
};
