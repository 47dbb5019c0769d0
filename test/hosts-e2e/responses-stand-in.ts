import { loopback } from "./projects.ts";

// A stand-in for the OpenAI Responses API (what Codex CLI talks to through a model provider's base_url):
// a loopback server answering POST <base>/responses with the streaming SSE events Codex reads
// (response.created, response.output_item.done for each item, response.completed). The model's turns are
// scripted by the number of function_call_output items in the request's input.

export type ResponsesItem =
  | { type: "text"; text: string }
  | { type: "call"; name: string; arguments: Record<string, unknown> }
  /** A freeform tool's call (Codex's apply_patch): its input is plain text, not JSON arguments. */
  | { type: "custom"; name: string; input: string };

export interface ResponsesRequest {
  body: any;
  outputs: { callId: string; output: string }[];
}

export interface ResponsesStandIn {
  url: string;
  requests: ResponsesRequest[];
  stop(): void;
}

const outputText = (o: unknown): string => (typeof o === "string" ? o : Array.isArray(o) ? o.map((x: any) => x?.text ?? "").join("\n") : JSON.stringify(o ?? ""));

export function startResponsesStandIn(script: (turn: number, req: ResponsesRequest) => ResponsesItem[] | undefined): ResponsesStandIn {
  const requests: ResponsesRequest[] = [];
  const server = loopback(
    async (req, url) => {
      if (!url.pathname.endsWith("/responses")) return new Response("{}", { status: 404 });
      const body = (await req.json()) as any;
      const outputs = (Array.isArray(body.input) ? body.input : []).filter((i: any) => i?.type === "function_call_output" || i?.type === "custom_tool_call_output").map((i: any) => ({ callId: i.call_id, output: outputText(i.output) }));
      const seen: ResponsesRequest = { body, outputs };
      requests.push(seen);
      const turn = outputs.length;
      const items = script(turn, seen) ?? [{ type: "text", text: "done" }];
      const ev = (data: Record<string, unknown>) => `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
      const id = `resp_standin_${requests.length}`;
      let out = ev({ type: "response.created", response: { id } });
      items.forEach((it, i) => {
        const call_id = `call_standin_${turn}_${i}`;
        const item =
          it.type === "text"
            ? { type: "message", role: "assistant", id: `msg_${turn}_${i}`, content: [{ type: "output_text", text: it.text }] }
            : it.type === "custom"
              ? { type: "custom_tool_call", id: `ctc_${turn}_${i}`, call_id, name: it.name, input: it.input }
              : { type: "function_call", id: `fc_${turn}_${i}`, call_id, name: it.name, arguments: JSON.stringify(it.arguments) };
        out += ev({ type: "response.output_item.added", output_index: i, item });
        out += ev({ type: "response.output_item.done", output_index: i, item });
      });
      out += ev({ type: "response.completed", response: { id, usage: { input_tokens: 10, input_tokens_details: null, output_tokens: 5, output_tokens_details: null, total_tokens: 15 } } });
      return new Response(out, { headers: { "content-type": "text/event-stream" } });
    },
    (url) => (url.pathname.endsWith("/models") ? Response.json({ object: "list", data: [], models: [] }) : new Response("{}", { status: 404 })),
  );
  return { url: `${server.base}/v1`, requests, stop: server.stop };
}
