import { loopback } from "./projects.ts";

// A stand-in for the Gemini API (what Gemini CLI talks to; GOOGLE_GEMINI_BASE_URL points it here): a loopback
// server answering models/<model>:streamGenerateContent?alt=sse with GenerateContentResponse chunks, and
// :generateContent for the CLI's side questions. Turns are scripted by the number of functionResponse parts.

export type GeminiPart = { text: string } | { functionCall: { name: string; args: Record<string, unknown> } };

export interface GeminiRequest {
  path: string;
  body: any;
  responses: { name: string; response: unknown }[];
}

export function startGeminiStandIn(script: (turn: number, req: GeminiRequest) => GeminiPart[] | undefined) {
  const requests: GeminiRequest[] = [];
  const server = loopback(
    async (req, url) => {
      const body = (await req.json().catch(() => ({}))) as any;
      const responses = (body.contents ?? []).flatMap((c: any) => (c.parts ?? []).filter((p: any) => p.functionResponse).map((p: any) => p.functionResponse));
      const seen: GeminiRequest = { path: url.pathname, body, responses };
      requests.push(seen);
      const usage = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };
      if (url.pathname.endsWith(":countTokens")) return Response.json({ totalTokens: 10 });
      const main = url.pathname.endsWith(":streamGenerateContent") && Array.isArray(body.tools) && body.tools.length > 0;
      const parts = main ? (script(responses.length, seen) ?? [{ text: "done" }]) : [{ text: '{"reasoning":"stand-in","next_speaker":"user","model_choice":"flash"}' }];
      const chunk = { candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }], usageMetadata: usage, modelVersion: "stand-in" };
      if (url.pathname.endsWith(":streamGenerateContent")) return new Response(`data: ${JSON.stringify(chunk)}\r\n\r\n`, { headers: { "content-type": "text/event-stream" } });
      return Response.json(chunk);
    },
    () => Response.json({ models: [] }),
  );
  return { url: server.base, requests, stop: server.stop };
}
