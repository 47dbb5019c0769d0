import { expect, test } from "bun:test";
import { join } from "node:path";
import { makeRepo } from "../helpers/repo.ts";

// A hook reads its payload from stdin to the end, however the host writes it: a large Write payload sent in
// pieces with pauses is read whole (the credential at its very end is found), and no payload is "".
const MAIN = join(import.meta.dir, "..", "..", "src", "cli", "main.ts");

async function hook(payload: string, pieces: number, cwd: string) {
  const p = Bun.spawn([process.execPath, MAIN, "agent-event", "claude-code", "pre-tool-use"], { cwd, stdin: "pipe", stdout: "pipe", stderr: "pipe", env: { ...process.env } });
  const bytes = Buffer.from(payload);
  const size = Math.ceil(bytes.length / pieces);
  for (let at = 0; at < bytes.length; at += size) {
    p.stdin.write(bytes.subarray(at, at + size));
    await p.stdin.flush();
    await Bun.sleep(20);
  }
  await p.stdin.end();
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { stdout, stderr, code };
}

test("a 1 MB Write payload written in 8 pieces is read whole", async () => {
  const root = makeRepo();
  const token = ["gh", "p_", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"].join("");
  const content = `${"harmless line of text\n".repeat(50_000)}TOKEN=${token}\n`;
  const payload = JSON.stringify({ session_id: "s", cwd: root, hook_event_name: "PreToolUse", tool_name: "Write", tool_input: { file_path: join(root, "notes.txt"), content } });
  expect(payload.length).toBeGreaterThan(1_000_000);
  const r = await hook(payload, 8, root);
  expect(r.stdout + r.stderr).toContain("github-token");
  expect(r.stdout + r.stderr).not.toContain(token);
}, 60_000);

test("an empty stdin is a malformed payload, blocked with the reason", async () => {
  const root = makeRepo();
  const r = await hook("", 1, root);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("the payload on stdin was empty");
}, 60_000);
