/**
 * The tree-sitter grammars guard embeds, and where each one comes from.
 *
 *   bun scripts/grammars.ts            refresh grammars/*.wasm from their npm packages, rewrite the manifest
 *   bun scripts/grammars.ts --verify   check the committed files against grammars/manifest.json (exit 1 on drift)
 *
 * Refreshing takes each package with `npm pack` into a temp dir (never a project dependency), copies the
 * ready-made .wasm and records its sha256.
 */
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface GrammarSource {
  language: string;
  package: string;
  version: string;
  /** The .wasm inside the package (under package/). */
  file: string;
}

export interface ManifestEntry extends GrammarSource {
  sha256: string;
}

export const GRAMMARS_DIR = join(import.meta.dir, "..", "grammars");
export const MANIFEST_PATH = join(GRAMMARS_DIR, "manifest.json");

export const SOURCES: GrammarSource[] = [
  { language: "python", package: "tree-sitter-python", version: "0.25.0", file: "tree-sitter-python.wasm" },
  { language: "javascript", package: "tree-sitter-javascript", version: "0.25.0", file: "tree-sitter-javascript.wasm" },
  { language: "typescript", package: "tree-sitter-typescript", version: "0.23.2", file: "tree-sitter-typescript.wasm" },
  { language: "tsx", package: "tree-sitter-typescript", version: "0.23.2", file: "tree-sitter-tsx.wasm" },
  { language: "go", package: "tree-sitter-go", version: "0.25.0", file: "tree-sitter-go.wasm" },
  { language: "rust", package: "tree-sitter-rust", version: "0.24.0", file: "tree-sitter-rust.wasm" },
  { language: "java", package: "tree-sitter-java", version: "0.23.5", file: "tree-sitter-java.wasm" },
  { language: "bash", package: "tree-sitter-bash", version: "0.25.1", file: "tree-sitter-bash.wasm" },
];

export const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

function run(cmd: string[], cwd: string): string {
  const p = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed: ${p.stderr.toString().trim().split("\n").pop()}`);
  return p.stdout.toString();
}

/** Fetch every package once, copy its grammars into grammars/, write the manifest. */
export function refresh(): ManifestEntry[] {
  const work = mkdtempSync(join(tmpdir(), "guard-grammars-"));
  try {
    const unpacked = new Map<string, string>();
    const entries: ManifestEntry[] = [];
    for (const src of SOURCES) {
      const spec = `${src.package}@${src.version}`;
      let dir = unpacked.get(spec);
      if (!dir) {
        const tgz = run(["npm", "pack", spec, "--silent"], work).trim().split("\n").pop()!;
        dir = join(work, spec.replace(/[@/]/g, "_"));
        run(["mkdir", "-p", dir], work);
        run(["tar", "xzf", join(work, tgz), "-C", dir], work);
        unpacked.set(spec, dir);
      }
      const from = join(dir, "package", src.file);
      if (!existsSync(from)) throw new Error(`${spec} has no ${src.file}`);
      copyFileSync(from, join(GRAMMARS_DIR, src.file));
      entries.push({ ...src, sha256: sha256(readFileSync(from)) });
      console.log(`${src.language.padEnd(10)} ${spec} ${src.file}`);
    }
    writeFileSync(MANIFEST_PATH, `${JSON.stringify({ grammars: entries }, null, 2)}\n`);
    return entries;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Problems found comparing grammars/ with the manifest and with SOURCES; empty when all is well. */
export function verify(dir = GRAMMARS_DIR): string[] {
  const problems: string[] = [];
  const manifestPath = join(dir, "manifest.json");
  if (!existsSync(manifestPath)) return [`${manifestPath} is missing`];
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { grammars: ManifestEntry[] };
  for (const src of SOURCES) {
    const entry = manifest.grammars.find((e) => e.language === src.language);
    if (!entry) {
      problems.push(`${src.language}: not in the manifest`);
      continue;
    }
    if (entry.package !== src.package || entry.version !== src.version || entry.file !== src.file)
      problems.push(`${src.language}: manifest says ${entry.package}@${entry.version} ${entry.file}, script says ${src.package}@${src.version} ${src.file}`);
    const path = join(dir, entry.file);
    if (!existsSync(path)) {
      problems.push(`${src.language}: ${entry.file} is missing`);
      continue;
    }
    const actual = sha256(readFileSync(path));
    if (actual !== entry.sha256) problems.push(`${src.language}: ${entry.file} has sha256 ${actual}, manifest says ${entry.sha256}`);
  }
  for (const entry of manifest.grammars)
    if (!SOURCES.some((s) => s.language === entry.language)) problems.push(`${entry.language}: in the manifest but not in scripts/grammars.ts`);
  return problems;
}

if (import.meta.main) {
  if (process.argv.includes("--verify")) {
    const problems = verify();
    for (const p of problems) console.error(`grammars: ${p}`);
    if (problems.length) {
      console.error("grammars: run `bun scripts/grammars.ts` to refresh, then commit grammars/");
      process.exit(1);
    }
    console.log(`grammars: ${SOURCES.length} grammars match the manifest`);
  } else {
    refresh();
    const problems = verify();
    if (problems.length) throw new Error(problems.join("; "));
  }
}
