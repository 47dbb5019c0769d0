import { sha256Hex } from "../../state/digest.ts";

/**
 * Read many blobs with one `git cat-file --batch`: `specs` are `<rev>:<path>` or blob shas. A missing
 * object comes back as undefined.
 */
export function readBlobs(root: string, specs: string[]): (Buffer | undefined)[] {
  if (specs.length === 0) return [];
  const p = Bun.spawnSync(["git", "-c", "core.quotepath=off", "cat-file", "--batch"], {
    cwd: root,
    stdin: new TextEncoder().encode(`${specs.join("\n")}\n`),
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, LC_ALL: "C", GIT_OPTIONAL_LOCKS: "0" },
  });
  if (p.exitCode !== 0) throw new Error(`git cat-file failed: ${p.stderr.toString().trim().split("\n")[0]}`);
  const out = Buffer.from(p.stdout);
  const result: (Buffer | undefined)[] = [];
  let off = 0;
  for (let i = 0; i < specs.length; i++) {
    const nl = out.indexOf(10, off);
    if (nl < 0) throw new Error("git cat-file: short output");
    const header = out.subarray(off, nl).toString();
    off = nl + 1;
    if (header.endsWith(" missing") || header.endsWith(" ambiguous")) {
      result.push(undefined);
      continue;
    }
    const size = Number(header.split(" ")[2]);
    result.push(out.subarray(off, off + size));
    off += size + 1;
  }
  return result;
}

export const sha256 = (b: Buffer | string) => sha256Hex(b);

export const isBinary = (b: Buffer) => b.subarray(0, 8000).includes(0);
