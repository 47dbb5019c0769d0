/**
 * Go tests that run the go command themselves (`exec.Command("go", "test", "-gcflags=-m", …)` to read the
 * compiler's report, `go build -buildmode plugin` in TestMain, `go vet` of a generated package): what
 * they depend on is the source the child compiles, which no coverage counter names. Each recorded test
 * process finds a `go` of guard's first on its PATH that notes its working directory and arguments, then
 * becomes the real go command. The files those builds compile (the named packages and their in-module
 * dependencies, as `go list -deps` gives them for the same tags) are the test's read files, so an edit
 * of any of them selects it. A build with coverage on (`go build -cover`) is left out: the program it
 * builds writes counters of its own when the test runs it, finer evidence than its files.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

/** go subcommands that compile the packages they name. */
const COMPILING = new Set(["build", "test", "vet", "run", "install"]);

/** Flags of those subcommands that take a value as the next argument (when not written `-flag=value`). */
const VALUE_FLAGS = new Set(
  ("o buildmode gcflags ldflags asmflags gccgoflags tags mod modfile overlay pkgdir p toolexec compiler installsuffix pgo " +
    "coverpkg covermode exec run skip bench benchtime count cpu timeout parallel list fuzz fuzztime fuzzminimizetime " +
    "coverprofile cpuprofile memprofile memprofilerate blockprofile blockprofilerate mutexprofile mutexprofilefraction " +
    "outputdir trace shuffle vet C")
    .split(" "),
);

/** A `go` of guard's own in `work` (the directory to put first on PATH), or undefined where a shell script cannot stand for it (Windows). */
export function makeGoShim(work: string, realGo: string): string | undefined {
  if (process.platform === "win32") return undefined;
  const dir = join(work, "go-shim");
  mkdirSync(dir, { recursive: true });
  const quoted = `'${realGo.replace(/'/g, `'\\''`)}'`;
  // One record per call: the working directory, the argument count, the arguments, each ended by NUL.
  writeFileSync(join(dir, "go"), `#!/bin/sh\nif [ -n "$GUARD_GO_CALLS" ]; then printf '%s\\0' "$PWD" "$#" "$@" >> "$GUARD_GO_CALLS"; fi\nexec ${quoted} "$@"\n`);
  chmodSync(join(dir, "go"), 0o755);
  return dir;
}

/** The environment of one recorded test process: the shim first on PATH, its calls noted in `callsFile`. */
export function shimEnv(shimDir: string | undefined, callsFile: string): Record<string, string> {
  if (!shimDir) return {};
  return { PATH: [shimDir, process.env.PATH].filter(Boolean).join(":"), GUARD_GO_CALLS: callsFile };
}

export interface GoCall {
  cwd: string;
  args: string[];
}

/** The calls noted in `callsFile` (none when the test started no go command or the file cannot be read). A record cut short is dropped. */
export function readGoCalls(callsFile: string): GoCall[] {
  let text: string;
  try {
    text = readFileSync(callsFile, "utf8");
  } catch {
    return []; // none noted (or unreadable): the test keeps only its coverage, as before
  }
  const parts = text.split("\0");
  const calls: GoCall[] = [];
  let i = 0;
  while (i + 1 < parts.length) {
    const cwd = parts[i]!;
    const n = Number(parts[i + 1]);
    if (!Number.isInteger(n) || n < 0 || i + 2 + n > parts.length - 1) break;
    calls.push({ cwd, args: parts.slice(i + 2, i + 2 + n) });
    i += 2 + n;
  }
  return calls;
}

/** What a compiling call names: its subcommand, package arguments ("." when none), build tags and directory. */
export function compiledBy(call: GoCall): { test: boolean; packages: string[]; tags?: string; cwd: string } | undefined {
  // `go -C dir build …`: the only flag before the subcommand, and it takes a value.
  let sub = 0;
  let cwd = call.cwd;
  while (sub < call.args.length && call.args[sub]!.startsWith("-")) {
    const a = call.args[sub]!;
    if (a === "-C") cwd = join(call.cwd, call.args[++sub] ?? ".");
    else if (a.startsWith("-C=")) cwd = join(call.cwd, a.slice(3));
    sub++;
  }
  if (!COMPILING.has(call.args[sub] ?? "")) return undefined;
  const packages: string[] = [];
  let tags: string | undefined;
  const rest = call.args.slice(sub + 1);
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (a === "-args" || a === "--") break;
    if (a.startsWith("-")) {
      const name = a.replace(/^--?/, "").split("=")[0]!;
      if (name === "cover" || name === "coverpkg" || name === "covermode") return undefined;
      const value = a.includes("=") ? a.slice(a.indexOf("=") + 1) : VALUE_FLAGS.has(name) ? rest[++i] : undefined;
      if (name === "tags" && value !== undefined) tags = value;
      continue;
    }
    // `go run main.go arg…`: what follows the files is the program's arguments.
    if (call.args[sub] === "run" && packages.length > 0 && !a.endsWith(".go")) break;
    packages.push(a);
  }
  return { test: call.args[sub] === "test", packages: packages.length ? packages : ["."], ...(tags !== undefined ? { tags } : {}), cwd };
}

const SEP = "\x1f";
const FILE_FIELDS = ["GoFiles", "CgoFiles", "SFiles", "HFiles", "CFiles", "CXXFiles", "EmbedFiles"];

/**
 * The repository files the compiling calls read: every package they name and its dependencies inside the
 * module at `moduleDir`, with test files for `go test`'s own packages. Calls that cannot be resolved are
 * named in the result's notes (those tests keep only their coverage). Asynchronous, so the other tests of
 * the pool go on running meanwhile.
 */
export async function filesCompiled(calls: GoCall[], root: string, moduleDir: string): Promise<{ files: string[]; notes: string[] }> {
  const files = new Set<string>();
  const notes: string[] = [];
  const seen = new Set<string>();
  for (const call of calls) {
    const c = compiledBy(call);
    if (!c) continue;
    const key = JSON.stringify(c);
    if (seen.has(key)) continue;
    seen.add(key);
    const template = `{{.Dir}}\t{{.DepOnly}}\t${[...FILE_FIELDS, "TestGoFiles", "XTestGoFiles"].map((f) => `{{join .${f} "\\x1f"}}`).join("\t")}`;
    const listed = await goList(["go", "list", "-e", "-deps", ...(c.tags !== undefined ? ["-tags", c.tags] : []), "-f", template, "--", ...c.packages], c.cwd);
    if (listed.code !== 0) {
      notes.push(`the packages a go command it started compiled cannot be listed (go ${call.args.join(" ")}: ${listed.stderr.trim().split("\n").at(-1) ?? ""})`);
      continue;
    }
    for (const line of listed.stdout.split("\n").filter(Boolean)) {
      const [dir, depOnly, ...groups] = line.split("\t");
      if (!dir || relative(moduleDir, dir).startsWith("..")) continue;
      const own = depOnly === "false";
      groups.forEach((g, i) => {
        if (i >= FILE_FIELDS.length && !(c.test && own)) return;
        for (const f of g.split(SEP).filter(Boolean)) {
          const rel = relative(root, join(dir, f)).split("\\").join("/");
          if (!rel.startsWith("..")) files.add(rel);
        }
      });
    }
  }
  return { files: [...files].sort(), notes };
}

async function goList(cmd: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const proc = Bun.spawn(cmd, { cwd, stdout: "pipe", stderr: "pipe", env: { ...process.env, GOFLAGS: process.env.GOFLAGS ?? "" } });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    return { code, stdout, stderr };
  } catch (e) {
    return { code: 1, stdout: "", stderr: String((e as Error).message ?? e) };
  }
}
