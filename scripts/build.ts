/**
 * Build the single-file `guard` binary for this machine: `bun scripts/build.ts` → dist/guard.
 *
 * Minified ESM with bytecode (ESM because src/cli/main.ts uses top-level await; bytecode with ESM needs
 * `compile`), split at every dynamic import: a process loads (and evaluates the imports of) only the chunks
 * its command reaches, so a hook call does not pay for the engine, the indexer or the test runners. The grammars and the tree-sitter runtime wasm are embedded through their `with { type: "file" }`
 * imports. The binary ignores .env and bunfig.toml in the directory it runs in: guard's behaviour must not
 * change with a user's project files.
 *
 *   bun scripts/build.ts [--outfile dist/guard] [--no-bytecode]
 */
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dir, "..");
export const ENTRY = join(ROOT, "src", "cli", "main.ts");

export interface CompileOptions {
  outfile: string;
  /** A Bun compile target such as "bun-linux-arm64-musl"; omitted = this machine. */
  target?: Bun.Build.CompileTarget;
  /** The bun binary of the target to wrap (so nothing has to be downloaded). */
  executablePath?: string;
  bytecode?: boolean;
}

/** Compile guard once; throws with Bun's own messages when the build fails. */
export async function compileGuard(o: CompileOptions): Promise<string> {
  mkdirSync(dirname(o.outfile), { recursive: true });
  const result = await Bun.build({
    entrypoints: [ENTRY],
    target: "bun",
    format: "esm",
    minify: true,
    sourcemap: "none",
    bytecode: o.bytecode ?? true,
    splitting: true,
    compile: {
      outfile: o.outfile,
      ...(o.target ? { target: o.target } : {}),
      ...(o.executablePath ? { executablePath: o.executablePath } : {}),
      autoloadDotenv: false,
      autoloadBunfig: false,
      autoloadTsconfig: false,
      autoloadPackageJson: false,
    },
  });
  if (!result.success) throw new Error(`build failed:\n${result.logs.map(String).join("\n")}`);
  const out = result.outputs[0]?.path ?? o.outfile;
  return out;
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--outfile");
  const outfile = resolve(at >= 0 && args[at + 1] ? args[at + 1]! : join(ROOT, "dist", "guard"));
  const started = performance.now();
  const out = await compileGuard({ outfile, bytecode: !args.includes("--no-bytecode") });
  const size = Bun.file(out).size;
  console.log(`built ${out} (${(size / 1024 / 1024).toFixed(1)} MiB) in ${Math.round(performance.now() - started)} ms`);
  // A quick look at start-up; bench/startup.ts is the real measurement.
  const times: number[] = [];
  for (let i = 0; i < 11; i++) {
    const t0 = performance.now();
    const p = Bun.spawnSync([out, "--version"], { stdout: "ignore", stderr: "pipe" });
    if (p.exitCode !== 0) throw new Error(`the built binary does not start: ${p.stderr.toString().trim()}`);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  console.log(`${out} --version: median ${times[5]!.toFixed(1)} ms over ${times.length} runs`);
}
