// Every host record lists the tool names it knows with an example payload; each runs through the real
// handler and must become what the record says (a shell check, an edit check, not gated, or refused).
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { handleAgentEvent } from "../../src/hosts/handle.ts";
import { HOSTS } from "../../src/hosts/registry.ts";
import { makeRepo } from "../helpers/repo.ts";

const root = makeRepo({ "a.py": "a = 1\n", "README.md": "r\n" });

describe("host records' tool examples", () => {
  for (const host of HOSTS)
    test(`${host.id}: ${host.tools.map((t) => t.tool).join(", ")}`, async () => {
      expect(host.tools.length).toBeGreaterThan(0);
      for (const t of host.tools) {
        writeFileSync(join(root, "a.py"), "a = 1\n");
        const payload = JSON.stringify(t.payload).replaceAll("$ROOT", root);
        const r = await handleAgentEvent(host.id, t.event, payload, { processCwd: root });
        const became = r.verdict.code === "HOOK_NOT_GATED" ? "not-gated" : r.verdict.code === "HOOK_UNKNOWN_TOOL" ? "refused" : r.event?.event;
        expect(`${t.tool} → ${became}`).toBe(`${t.tool} → ${t.becomes}`);
        if (t.becomes === "pre-shell") expect(r.verdict.decision).toBe("ALLOW"); // `ls`: checked and let through
      }
    });
});
