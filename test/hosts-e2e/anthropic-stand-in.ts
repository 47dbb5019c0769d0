// A stand-in for the Anthropic Messages API (the one part of a Claude Code session that cannot run here):
// a loopback HTTP server answering POST /v1/messages with the streaming SSE events Claude Code expects.
// The model's turns are scripted by how many tool_result blocks the request carries, so a session is
// deterministic: turn 0 = the first answer, turn 1 = the answer after the first tool result, and so on.

export type ScriptedBlock = { type: "text"; text: string } | { type: "tool_use"; name: string; input: Record<string, unknown> };

export interface ToolResultSeen {
  toolUseId: string;
  isError: boolean;
  text: string;
}

export interface MessagesRequest {
  body: any;
  toolResults: ToolResultSeen[];
}

export interface StandIn {
  url: string;
  /** Every request the host sent, in order (main-loop and side requests). */
  requests: MessagesRequest[];
  stop(): void;
}

const textOf = (content: unknown): string =>
  typeof content === "string" ? content : Array.isArray(content) ? content.map((c) => (typeof c?.text === "string" ? c.text : "")).join("\n") : "";

export function toolResults(body: any): ToolResultSeen[] {
  const out: ToolResultSeen[] = [];
  for (const m of body?.messages ?? [])
    if (Array.isArray(m.content))
      for (const c of m.content) if (c?.type === "tool_result") out.push({ toolUseId: c.tool_use_id, isError: c.is_error === true, text: textOf(c.content) });
  return out;
}

function sse(blocks: ScriptedBlock[], model: string, turn: number): string {
  const ev = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
  let out = ev("message_start", {
    type: "message_start",
    message: { id: `msg_standin_${turn}`, type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } },
  });
  blocks.forEach((b, i) => {
    if (b.type === "text") {
      out += ev("content_block_start", { type: "content_block_start", index: i, content_block: { type: "text", text: "" } });
      out += ev("content_block_delta", { type: "content_block_delta", index: i, delta: { type: "text_delta", text: b.text } });
    } else {
      const id = `toolu_standin_${turn}_${i}`;
      out += ev("content_block_start", { type: "content_block_start", index: i, content_block: { type: "tool_use", id, name: b.name, input: {} } });
      out += ev("content_block_delta", { type: "content_block_delta", index: i, delta: { type: "input_json_delta", partial_json: JSON.stringify(b.input) } });
    }
    out += ev("content_block_stop", { type: "content_block_stop", index: i });
  });
  const stop = blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
  out += ev("message_delta", { type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 5 } });
  out += ev("message_stop", { type: "message_stop" });
  return out;
}

/**
 * `script(turn, request)` gives the model's next answer; past the end of the script it says "done".
 * Requests that are not the main loop (no tools offered, e.g. a title or summary) get a short text.
 */
export function startAnthropicStandIn(script: (turn: number, req: MessagesRequest) => ScriptedBlock[] | undefined): StandIn {
  const requests: MessagesRequest[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const url = new URL(req.url);
      if (req.method !== "POST" || !url.pathname.endsWith("/v1/messages")) {
        if (url.pathname.endsWith("/count_tokens")) return Response.json({ input_tokens: 10 });
        return new Response("{}", { status: 404, headers: { "content-type": "application/json" } });
      }
      const body = (await req.json()) as any;
      const seen: MessagesRequest = { body, toolResults: toolResults(body) };
      requests.push(seen);
      const mainLoop = Array.isArray(body.tools) && body.tools.length > 0;
      const turn = seen.toolResults.length;
      const blocks: ScriptedBlock[] = mainLoop ? (script(turn, seen) ?? [{ type: "text", text: "done" }]) : [{ type: "text", text: "ok" }];
      const text = sse(blocks, body.model ?? "claude-stand-in", turn);
      if (body.stream === false) {
        const content = blocks.map((b, i) => (b.type === "text" ? b : { ...b, id: `toolu_standin_${turn}_${i}` }));
        return Response.json({ id: `msg_standin_${turn}`, type: "message", role: "assistant", model: body.model, content, stop_reason: content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn", usage: { input_tokens: 10, output_tokens: 5 } });
      }
      return new Response(text, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, requests, stop: () => server.stop(true) };
}
