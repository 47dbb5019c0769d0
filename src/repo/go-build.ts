import { basename, dirname, join } from "node:path";

/** The environment that decides which files a Go build here compiles: an answer that used goLeavesOut depends on it. */
export const GO_BUILD_ENV = ["GOOS", "GOARCH", "GOFLAGS", "CGO_ENABLED"] as const;

/**
 * Whether the Go toolchain leaves `file` (repository-relative) out of its package's build here: a build
 * constraint (`//go:build windows`, a tag nobody sets) or a `_GOOS`/`_GOARCH` name suffix, under this
 * environment's GOOS, GOARCH, GOFLAGS and CGO_ENABLED. No test run here compiles such a file, so none can
 * see a change in it. `go list` answers (for the working tree); undefined when it cannot (no toolchain, a
 * package that does not load), and the caller keeps its safe fallback.
 */
export function goLeavesOut(root: string, file: string, cache = new Map<string, Set<string> | undefined>()): boolean | undefined {
  const dir = join(root, dirname(file));
  if (!cache.has(dir)) cache.set(dir, leftOutIn(dir));
  const out = cache.get(dir);
  return out === undefined ? undefined : out.has(basename(file));
}

const ALL_EXCLUDED = /build constraints exclude all Go files/;

function leftOutIn(dir: string): Set<string> | undefined {
  if (!Bun.which("go", { PATH: process.env.PATH ?? "" })) return undefined;
  let p: ReturnType<typeof Bun.spawnSync>;
  try {
    p = Bun.spawnSync(["go", "list", "-f", "{{range .IgnoredGoFiles}}{{.}}\n{{end}}", "."], { cwd: dir, stdout: "pipe", stderr: "pipe", timeout: 20_000 });
  } catch {
    return undefined;
  }
  const stderr = p.stderr?.toString() ?? "";
  if (p.exitCode !== 0) {
    if (!ALL_EXCLUDED.test(stderr)) return undefined;
    // Every file of the directory is left out: list them from the directory itself.
    const files = Bun.spawnSync(["go", "list", "-e", "-f", "{{range .IgnoredGoFiles}}{{.}}\n{{end}}", "."], { cwd: dir, stdout: "pipe", stderr: "pipe", timeout: 20_000 });
    return files.exitCode === 0 ? new Set(files.stdout.toString().split("\n").filter(Boolean)) : undefined;
  }
  return new Set(p.stdout?.toString().split("\n").filter(Boolean) ?? []);
}
