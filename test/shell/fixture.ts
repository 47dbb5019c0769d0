/**
 * The workspace every shell rule example runs in, built by script (fixed author and dates):
 *
 *   <base>/ws            the repository (cwd of the examples), branch main
 *     README.md src/app.ts docs/guide.md .gitignore   tracked
 *     notes.txt                                       untracked
 *     node_modules/pkg/index.js dist/app.js .env debug.log   git-ignored
 *     .guard/events.jsonl                             guard's state (kept out of git by info/exclude)
 *     commits: initial → docs (pushed to origin/main; branch feature, tag v1) → local (not pushed)
 *   <base>/other/data.txt  a file outside the workspace
 *   <base>/home            $HOME for the examples (has .profile)
 *   <base>/remote.git      the bare "origin"
 */
import { afterAll } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureStateDir } from "../../src/state/paths.ts";
import { sh, writeFiles } from "../helpers/repo.ts";

export interface ShellFixture {
  base: string;
  ws: string;
  home: string;
  other: string;
}

/** `parent`: where the fixture lives (default: the system temp directory). */
export function buildShellFixture(parent = tmpdir()): ShellFixture {
  const base = mkdtempSync(join(parent, "guard-shell-"));
  const ws = join(base, "ws");
  const home = join(base, "home");
  const other = join(base, "other");
  mkdirSync(ws);
  mkdirSync(home);
  mkdirSync(other);
  writeFileSync(join(home, ".profile"), "# profile\n");
  writeFileSync(join(other, "data.txt"), "outside\n");
  sh(["git", "init", "-q", "--bare", "-b", "main", join(base, "remote.git")], base);
  sh(["git", "init", "-q", "-b", "main"], ws);
  writeFiles(ws, { "README.md": "fixture\n", "src/app.ts": "export const app = 1;\n", "docs/guide.md": "# guide\n", ".gitignore": "node_modules/\ndist/\n.env\n*.log\n" });
  sh(["git", "add", "-A"], ws);
  sh(["git", "commit", "-q", "-m", "initial"], ws);
  writeFiles(ws, { "docs/guide.md": "# guide\n\nmore\n" });
  sh(["git", "commit", "-q", "-am", "docs"], ws);
  sh(["git", "remote", "add", "origin", join(base, "remote.git")], ws);
  sh(["git", "push", "-q", "origin", "main"], ws);
  sh(["git", "branch", "feature"], ws);
  sh(["git", "tag", "v1"], ws);
  writeFiles(ws, { "src/app.ts": "export const app = 2;\n" });
  sh(["git", "commit", "-q", "-am", "local"], ws);
  writeFiles(ws, { "notes.txt": "my notes\n", "node_modules/pkg/index.js": "module.exports = 1;\n", "dist/app.js": "built\n", ".env": "TOKEN=placeholder\n", "debug.log": "log\n" });
  ensureStateDir(ws);
  writeFileSync(join(ws, ".guard", "events.jsonl"), "");
  return { base, ws, home, other };
}

/**
 * The fixture for a test file that runs guardCommand and then the real command (removed after the file's
 * tests): its context, paths in the workspace, their text, and bash run there.
 */
export function shellRunKit() {
  const fx = buildShellFixture();
  afterAll(() => rmSync(fx.base, { recursive: true, force: true }));
  const at = (...p: string[]) => join(fx.ws, ...p);
  return {
    fx,
    ctx: { cwd: fx.ws, env: { HOME: fx.home } },
    at,
    read: (...p: string[]) => readFileSync(at(...p), "utf8"),
    bash: (cmd: string) => sh(["bash", "-c", cmd], fx.ws),
  };
}
