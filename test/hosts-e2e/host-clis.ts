import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/**
 * The agent hosts' own CLIs, pinned, installed from npm once into a cache outside the repository
 * (GUARD_TEST_CACHE, default ~/.cache/guard-tests) and reused by every run. npm does not run the packages'
 * install scripts here, so each entry names the platform package's binary (or script) to call directly.
 */
export interface HostCli {
  id: string;
  packages: string[];
  /** Path of the executable inside the cache's node_modules. */
  bin: string;
}

export const HOST_CLIS = {
  "claude-code": { id: "claude-code", packages: ["@anthropic-ai/claude-code@2.1.328"], bin: "@anthropic-ai/claude-code-linux-x64/claude" },
  codex: { id: "codex", packages: ["@openai/codex@0.171.0"], bin: "@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex" },
  gemini: { id: "gemini", packages: ["@google/gemini-cli@0.61.0"], bin: "@google/gemini-cli/bundle/gemini.js" },
  opencode: { id: "opencode", packages: ["opencode-ai@1.18.33"], bin: "opencode-linux-x64/bin/opencode" },
  copilot: { id: "copilot", packages: ["@github/copilot@1.0.102"], bin: "@github/copilot-linux-x64/copilot" },
  // Not an agent host: the git hook manager whose `lefthook install` replaces .git/hooks/pre-commit.
  lefthook: { id: "lefthook", packages: ["lefthook@2.2.2"], bin: "lefthook-linux-x64/bin/lefthook" },
} satisfies Record<string, HostCli>;

export function cacheRoot(): string {
  return process.env.GUARD_TEST_CACHE || join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "guard-tests");
}

/** The host's executable, downloaded on first use (a fresh CI machine has none). */
export function hostCli(cli: HostCli): string {
  const dir = join(cacheRoot(), "hosts", `${cli.id}-${cli.packages.map((p) => p.replace(/[^A-Za-z0-9.@-]/g, "_")).join("+")}`);
  const bin = join(dir, "node_modules", cli.bin);
  if (existsSync(bin)) return bin;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "host-cli", private: true }));
  const r = Bun.spawnSync(["npm", "install", "--no-save", "--no-audit", "--no-fund", ...cli.packages], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0 || !existsSync(bin)) throw new Error(`npm install ${cli.packages.join(" ")} into ${dir} failed: ${r.stderr.toString().slice(-500)}`);
  return bin;
}

if (import.meta.main) for (const cli of Object.values(HOST_CLIS)) console.log(hostCli(cli));

/** The pre-commit framework (PyPI), pinned, installed with pip into the same cache; returns its PYTHONPATH. */
export function preCommitFramework(): string {
  const dir = join(cacheRoot(), "tools", "pre-commit-4.7.0");
  if (existsSync(join(dir, "pre_commit", "__init__.py"))) return dir;
  mkdirSync(dir, { recursive: true });
  const r = Bun.spawnSync(["python3", "-m", "pip", "install", "--quiet", "--no-input", "--target", dir, "pre-commit==4.7.0"], { stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`pip install pre-commit==4.7.0 into ${dir} failed: ${r.stderr.toString().slice(-500)}`);
  return dir;
}
