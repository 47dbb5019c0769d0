import { createHash } from "node:crypto";
import { existsSync, lstatSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { gitRaw, splitZ } from "../../repo/git.ts";

export const DELETED = "deleted";

const sha256 = (b: Buffer | string) => createHash("sha256").update(b).digest("hex");

/** A file's content fingerprint in the working tree: sha256 of its bytes (of its target, for a symlink). */
export function worktreeFingerprint(root: string, path: string): string {
  const abs = join(root, path);
  if (!existsSync(abs) && !isLink(abs)) return DELETED;
  const st = lstatSync(abs);
  if (st.isSymbolicLink()) return sha256(`symlink:${readlinkSync(abs)}`);
  if (st.isDirectory()) return sha256("directory:"); // a submodule or nested repository: judged elsewhere, never read
  return sha256(readFileSync(abs));
}

function isLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Every staged change against HEAD (or against nothing, before the first commit), with the staged content's fingerprint. */
export function stagedFingerprints(root: string): Map<string, string> {
  const head = gitRaw(["rev-parse", "--verify", "-q", "HEAD"], root).code === 0;
  const args = head ? ["diff", "--cached", "--raw", "-z", "--no-renames", "HEAD", "--"] : ["diff", "--cached", "--raw", "-z", "--no-renames", "4b825dc642cb6eb9a060e54bf8d69288fbee4904", "--"];
  const r = gitRaw(args, root);
  if (r.code !== 0) throw new Error(`git diff --cached failed: ${r.stderr.trim().split("\n")[0]}`);
  const parts = splitZ(r.stdout);
  const entries: { path: string; mode: string; blob: string; deleted: boolean }[] = [];
  for (let i = 0; i < parts.length; ) {
    // ":<old mode> <new mode> <old sha> <new sha> <status>" then the path
    const meta = parts[i++]!.split(" ");
    const path = parts[i++]!;
    // A submodule's pointer names a commit of another repository: skipped, as guard post skips it.
    if (meta[0] === ":160000" || meta[1] === "160000") continue;
    entries.push({ path, mode: meta[1]!, blob: meta[3]!, deleted: meta[4]!.startsWith("D") });
  }
  const out = new Map<string, string>();
  const live = entries.filter((e) => !e.deleted);
  const blobs = readBlobs(root, live.map((e) => e.blob));
  live.forEach((e, i) => out.set(e.path, e.mode === "120000" ? sha256(`symlink:${blobs[i]!.toString()}`) : sha256(blobs[i]!)));
  for (const e of entries) if (e.deleted) out.set(e.path, DELETED);
  return out;
}

function readBlobs(root: string, shas: string[]): Buffer[] {
  if (shas.length === 0) return [];
  const p = Bun.spawnSync(["git", "cat-file", "--batch"], { cwd: root, stdin: new TextEncoder().encode(`${shas.join("\n")}\n`), stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error("git cat-file failed");
  const out = Buffer.from(p.stdout);
  const blobs: Buffer[] = [];
  let off = 0;
  for (const _ of shas) {
    const nl = out.indexOf(10, off);
    const size = Number(out.subarray(off, nl).toString().split(" ")[2]);
    blobs.push(out.subarray(nl + 1, nl + 1 + size));
    off = nl + 1 + size + 1;
  }
  return blobs;
}
