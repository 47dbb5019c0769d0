import { connect } from "node:net";

/**
 * One Redis command over a fresh unix-socket connection, without ioredis: the lifecycle code uses it to
 * probe a server cheaply (PING, INFO) and it can never leave a client or a rejection behind.
 * Returns the reply as text (simple string, error prefixed "-", bulk string), or undefined on failure.
 */
export function respCommand(socket: string, args: string[], timeoutMs = 1000): Promise<string | undefined> {
  return new Promise((done) => {
    let buf = Buffer.alloc(0);
    let settled = false;
    const finish = (v: string | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      conn.destroy();
      done(v);
    };
    const conn = connect({ path: socket });
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    conn.on("error", () => finish(undefined));
    conn.on("close", () => finish(undefined));
    conn.on("connect", () => {
      conn.write(`*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join("")}`);
    });
    conn.on("data", (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      const eol = buf.indexOf("\r\n");
      if (eol < 0) return;
      const head = buf.toString("utf8", 0, eol);
      if (head[0] === "+" || head[0] === "-" || head[0] === ":") return finish(head[0] === "-" ? head : head.slice(1));
      if (head[0] === "$") {
        const len = Number(head.slice(1));
        if (len < 0) return finish("");
        if (buf.length >= eol + 2 + len) return finish(buf.toString("utf8", eol + 2, eol + 2 + len));
        return;
      }
      finish(head);
    });
  });
}

export async function pingSocket(socket: string, timeoutMs = 1000): Promise<boolean> {
  return (await pingReply(socket, timeoutMs)) === "ready";
}

/** PING, read three ways: it answers (ready), it is still loading its data (LOADING), or no answer at all. */
export async function pingReply(socket: string, timeoutMs = 1000): Promise<"ready" | "loading" | "silent"> {
  const reply = await respCommand(socket, ["PING"], timeoutMs);
  return reply === "PONG" ? "ready" : reply?.startsWith("-LOADING") ? "loading" : "silent";
}
