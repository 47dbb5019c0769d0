// A submodule (or an untracked nested repository) with local changes is another repository: `guard pre`
// and `guard post` skip it and name it, instead of crashing on it (EISDIR) or never approving; the
// commit gate lets the approved change through. Run on the compiled binary.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sh, writeFiles } from "../helpers/repo.ts";
import { useCompiledGuard } from "./host-payloads.ts";

const g = useCompiledGuard();
const env = () => ({ ...process.env, HOME: g.home, GIT_CONFIG_GLOBAL: "/dev/null", GIT_ALLOW_PROTOCOL: "file" });

function run(args: string[], cwd: string) {
  const p = Bun.spawnSync([g.bin, ...args], { cwd, env: env(), stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode ?? -1, out: `${p.stdout.toString()}${p.stderr.toString()}` };
}

// `guard pre` may start the engine for the impact range; stop it with the files.
afterAll(() => void Bun.spawnSync([g.bin, "engine", "stop"], { env: env() }));

/** app/ with lib/ as a submodule whose checkout has an uncommitted edit, and vendor/ an untracked repository. */
function appWithDirtySubmodule(): string {
  const base = mkdtempSync(join(tmpdir(), "guard-faults-submodule-"));
  const lib = join(base, "lib");
  const app = join(base, "app");
  for (const dir of [lib, app]) {
    sh(["mkdir", "-p", dir], base);
    sh(["git", "init", "-q", "-b", "main"], dir);
  }
  writeFiles(lib, { "util.py": "def f():\n    return 1\n" });
  sh(["git", "add", "-A"], lib);
  sh(["git", "commit", "-q", "-m", "lib"], lib);
  writeFiles(app, { "main.py": "print(1)\n" });
  sh(["git", "add", "-A"], app);
  sh(["git", "commit", "-q", "-m", "app"], app);
  sh(["git", "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "lib"], app);
  sh(["git", "commit", "-q", "-m", "add lib"], app);
  writeFileSync(join(app, "lib", "util.py"), "def f():\n    return 2\n");
  sh(["git", "init", "-q", "-b", "main", join(app, "vendor")], app);
  writeFiles(join(app, "vendor"), { "x.txt": "x\n" });
  return app;
}

test("pre and post skip a submodule with local changes and name it; the approved change commits", () => {
  const app = appWithDirtySubmodule();
  const pre = run(["pre", "change the greeting", "--scope", "main.py"], app);
  expect(pre.code).toBe(0);
  expect(pre.out).toContain("Skipped:** lib, vendor");
  writeFileSync(join(app, "main.py"), "print(2)\n");
  const post = run(["post"], app);
  expect(post.out).not.toContain("EISDIR");
  expect(post.out).toContain("not judged: lib (a submodule");
  expect(post.out).toContain("vendor (a submodule");
  expect(post.code).toBe(0);
  sh(["git", "add", "main.py"], app);
  expect(run(["precommit"], app).code).toBe(0);
});

test("a staged submodule pointer next to an approved change does not keep the commit gate from passing", () => {
  const app = appWithDirtySubmodule();
  expect(run(["pre", "change the greeting", "--scope", "main.py"], app).code).toBe(0);
  sh(["git", "commit", "-q", "-am", "lib edit"], join(app, "lib"));
  writeFileSync(join(app, "main.py"), "print(3)\n");
  expect(run(["post"], app).code).toBe(0);
  sh(["git", "add", "lib", "main.py"], app);
  const r = run(["precommit"], app);
  expect(r.out).not.toContain("EISDIR");
  expect(r.code).toBe(0);
});
