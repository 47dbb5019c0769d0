// Loopback stand-ins for guard's parse worker (src/code/worker/), for the faults a real worker cannot be
// made to show on demand, and a hook runner that does not block the event loop they answer from.
import { createServer, type Server, type Socket } from "node:net";
import { parse } from "../../src/code/parser.ts";
import { toPlainData } from "../../src/code/plain-tree.ts";
import { lineSplitter } from "../../src/code/worker/protocol.ts";
import { ensureWorkerSocketDir } from "../../src/code/worker/paths.ts";

export type Run = { code: number; stdout: string; stderr: string };

/** `guard agent-event claude-code pre-tool-use` with a PreToolUse payload, spawned without blocking this process. */
export async function claudeHook(guard: string[], dir: string, tool_name: string, tool_input: Record<string, unknown>, env: Record<string, string>): Promise<Run> {
  const payload = { session_id: "s1", cwd: dir, hook_event_name: "PreToolUse", tool_name, tool_input };
  const p = Bun.spawn([...guard, "agent-event", "claude-code", "pre-tool-use"], {
    cwd: dir,
    env: { ...process.env, ...env },
    stdin: new TextEncoder().encode(JSON.stringify(payload)),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, stdout, stderr };
}

/** A stand-in for the worker at its socket: says `hello`, then answers each request line as `answer` says. */
export async function standIn(servers: Server[], socket: string, hello: string, answer: (req: Record<string, unknown>, conn: Socket) => void): Promise<Record<string, unknown>[]> {
  const seen: Record<string, unknown>[] = [];
  ensureWorkerSocketDir(socket);
  const server = createServer((conn) => {
    conn.setEncoding("utf8");
    conn.on("error", () => {});
    conn.write(`${JSON.stringify({ hello, pid: process.pid })}\n`);
    conn.on(
      "data",
      lineSplitter((line) => {
        const req = JSON.parse(line) as Record<string, unknown>;
        seen.push(req);
        answer(req, conn);
      }),
    );
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  return seen;
}

/** The Bash tree of `source` as the worker sends it. */
export async function plainTreeOf(source: string) {
  const tree = await parse("bash", source);
  try {
    return toPlainData(tree.rootNode);
  } finally {
    tree.delete();
  }
}

