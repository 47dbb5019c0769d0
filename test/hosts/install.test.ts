// guard hook install / uninstall on config files that already hold other tools' hooks: guard's entries
// go in and out, everything else stays byte for byte.
import { beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { installHost, uninstallHost } from "../../src/hosts/install/settings.ts";
import { HOSTS, findHost } from "../../src/hosts/registry.ts";
import { hostStatus, guardHookFiles } from "../../src/hosts/status.ts";
import { handleAgentEvent } from "../../src/hosts/handle.ts";
import { makeRepo, guard, guardOnPath } from "../helpers/repo.ts";
import { MISSING_GUARD } from "../../src/hosts/invocation.ts";

beforeAll(() => {
  process.env.GIT_CONFIG_GLOBAL = "/dev/null";
});

const home = () => mkdtempSync(join(tmpdir(), "guard-fake-home-"));

function write(path: string, text: string) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** Someone else's hooks and settings, in each host's own layout. */
const THEIRS: Record<string, (indent: string | number) => string> = {
  "claude-code": (i) =>
    JSON.stringify(
      {
        permissions: { allow: ["Bash(npm test:*)"], deny: ["Read(./.env)"] },
        hooks: {
          PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "/usr/local/bin/other-tool check" }] }],
          PostToolUse: [{ matcher: "Write", hooks: [{ type: "command", command: "prettier --write" }] }],
        },
        model: "opus",
      },
      null,
      i,
    ) + "\n",
  codex: (i) => JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "notify-send done" }] }] } }, null, i) + "\n",
  cursor: (i) => JSON.stringify({ version: 1, hooks: { afterFileEdit: [{ command: "./fmt.sh" }], beforeShellExecution: [{ command: "./audit.sh" }] } }, null, i),
  copilot: (i) => JSON.stringify({ version: 1, hooks: { sessionStart: [{ type: "command", bash: "echo hi", timeoutSec: 5 }] } }, null, i) + "\n",
  antigravity: (i) => JSON.stringify({ hooks: { PreToolUse: [{ matcher: "run_command", hooks: [{ type: "command", command: "safe-chains agy" }] }] } }, null, i) + "\n",
  gemini: (i) => JSON.stringify({ theme: "GitHub", hooks: { BeforeTool: [{ matcher: "write_file", hooks: [{ type: "command", command: "lint.sh", name: "lint" }] }] }, mcpServers: {} }, null, i) + "\n",
  kiro: (i) => JSON.stringify({ version: "v1", hooks: [{ name: "lint-on-save", trigger: "PostFileSave", matcher: "\\.ts$", action: { type: "command", command: "npm run lint" } }] }, null, i) + "\n",
  windsurf: (i) => JSON.stringify({ hooks: { post_write_code: [{ command: "python3 fmt.py", show_output: false }] } }, null, i) + "\n",
};

describe("install and uninstall keep what is not guard's, byte for byte", () => {
  for (const host of HOSTS.filter((h) => h.layout.kind !== "plugin-file"))
    for (const indent of [2, 4, "\t"] as const)
      test(`${host.id}, indent ${JSON.stringify(indent)}`, () => {
        const root = makeRepo();
        const h = home();
        const path = host.configs[host.defaultScope]!(root, h);
        const original = THEIRS[host.id]!(indent);
        write(path, original);

        const first = installHost(host, { root, home: h });
        expect(first.action).toBe("updated");
        expect(first.backup && readFileSync(first.backup, "utf8")).toBe(original);
        const installed = readFileSync(path, "utf8");
        expect(installed).toContain(`agent-event ${host.id} `);
        // Their entries are still there, with the file's own indentation.
        const firstIndented = /\n([ \t]+)\S/.exec(installed)![1];
        expect(firstIndented).toBe(indent === "\t" ? "\t" : " ".repeat(indent));
        expect(installed.endsWith("\n")).toBe(original.endsWith("\n"));

        // Idempotent.
        const again = installHost(host, { root, home: h });
        expect(again.action).toBe("unchanged");
        expect(readFileSync(path, "utf8")).toBe(installed);

        // The host's status sees it; the agent may not edit the file any more.
        expect(hostStatus(root, h).find((s) => s.id === host.id)!.installed).toBe(true);
        expect(guardHookFiles(root, h)).toContain(path);

        const removed = uninstallHost(host, { root, home: h });
        expect(removed.map((r) => r.action)).toEqual(["updated"]);
        expect(readFileSync(path, "utf8")).toBe(original);
        expect(uninstallHost(host, { root, home: h }).map((r) => r.action)).toEqual(["unchanged"]);
      });
});

describe("files guard creates", () => {
  for (const host of HOSTS)
    test(`${host.id}: created on install, gone on uninstall`, () => {
      const root = makeRepo();
      const h = home();
      const path = host.configs[host.defaultScope]!(root, h);
      const c = installHost(host, { root, home: h });
      expect(c.action).toBe("created");
      expect(c.events.length).toBeGreaterThan(0);
      expect(existsSync(path)).toBe(true);
      const r = uninstallHost(host, { root, home: h });
      expect(r.map((x) => x.action)).toEqual(["removed"]);
      expect(existsSync(path)).toBe(false);
    });

  test("claude-code: --shared writes .claude/settings.json, --global the home file", () => {
    const root = makeRepo();
    const h = home();
    const cc = findHost("claude-code")!;
    expect(installHost(cc, { root, home: h, scope: "shared" }).path).toBe(join(root, ".claude", "settings.json"));
    expect(installHost(cc, { root, home: h, scope: "global" }).path).toBe(join(h, ".claude", "settings.json"));
    expect(installHost(cc, { root, home: h }).path).toBe(join(root, ".claude", "settings.local.json"));
    expect(uninstallHost(cc, { root, home: h }).map((x) => x.action)).toEqual(["removed", "removed", "removed"]);
  });
});

describe("refusals", () => {
  test("a file guard cannot parse is left alone, with the reason", () => {
    const root = makeRepo();
    const h = home();
    const cc = findHost("claude-code")!;
    const path = join(root, ".claude", "settings.local.json");
    const broken = '{ "hooks": { // a comment\n } }\n';
    write(path, broken);
    const c = installHost(cc, { root, home: h });
    expect(c.action).toBe("refused");
    expect(c.note).toContain("not valid JSON");
    expect(readFileSync(path, "utf8")).toBe(broken);
  });

  test("a `hooks` key of the wrong type is not guessed at", () => {
    const root = makeRepo();
    const h = home();
    const path = join(root, ".cursor", "hooks.json");
    write(path, '{"version":1,"hooks":[]}');
    const c = installHost(findHost("cursor")!, { root, home: h });
    expect(c.action).toBe("refused");
    expect(readFileSync(path, "utf8")).toBe('{"version":1,"hooks":[]}');
  });

  test("an opencode plugin file that is not guard's is not overwritten", () => {
    const root = makeRepo();
    const h = home();
    const path = join(root, ".opencode", "plugins", "guard.js");
    write(path, "export const Mine = async () => ({})\n");
    expect(installHost(findHost("opencode")!, { root, home: h }).action).toBe("refused");
    expect(readFileSync(path, "utf8")).toBe("export const Mine = async () => ({})\n");
  });

  test("the CLI refuses with exit 1 and says why", () => {
    const root = makeRepo();
    write(join(root, ".claude", "settings.local.json"), "{oops");
    const r = guard(["hook", "install", "--host", "claude-code"], root, { env: { HOME: home() } });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("refused");
    expect(r.stdout).toContain("not valid JSON");
  });
});

describe("the commands written into configs", () => {
  test("a machine-local config calls guard by absolute path, under the GUARD_HOME it was installed with", async () => {
    const root = makeRepo();
    const h = home();
    installHost(findHost("claude-code")!, { root, home: h });
    const cfg = JSON.parse(readFileSync(join(root, ".claude", "settings.local.json"), "utf8"));
    const cmd: string = cfg.hooks.PreToolUse[0].hooks[0].command;
    expect(cmd.startsWith(`env GUARD_HOME=${process.env.GUARD_HOME} /`)).toBe(true);
    expect(cmd).toMatch(/src\/cli\/main\.ts agent-event claude-code pre-tool-use$/);
    expect(cfg.hooks.PreToolUse[0].hooks[0].onFailure).toBe("block");
    // Run the installed command exactly as the host would.
    const p = Bun.spawnSync(["sh", "-c", cmd], {
      cwd: root,
      stdin: new TextEncoder().encode(JSON.stringify({ session_id: "s", cwd: root, tool_name: "Bash", tool_input: { command: "git push --force" } })),
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(p.exitCode).toBe(2);
    expect(p.stderr.toString()).toContain("SHELL_GIT_FORCE_PUSH");
  });

  test("the opencode plugin guard writes blocks a tool call by throwing", async () => {
    const root = makeRepo();
    const h = home();
    installHost(findHost("opencode")!, { root, home: h });
    const plugin = readFileSync(join(root, ".opencode", "plugins", "guard.js"), "utf8");
    expect(plugin).not.toContain(process.execPath); // committed: guard is found on PATH when it loads
    const path = process.env.PATH;
    process.env.PATH = `${guardOnPath()}:${path}`;
    const mod = await import(join(root, ".opencode", "plugins", "guard.js")).finally(() => (process.env.PATH = path));
    const hooks = await mod.GuardPlugin({ directory: root });
    await expect(hooks["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c" }, { args: { command: "rm -rf /" } })).rejects.toThrow(/SHELL_PROTECTED_ROOT/);
    await hooks["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c" }, { args: { command: "ls" } });
    await hooks.event({ event: { type: "session.idle", properties: { sessionID: "s" } } });
    const events = readFileSync(join(root, ".guard", "events.jsonl"), "utf8");
    expect(events).toContain('"host":"opencode"');
    expect(events).toContain('"hostEvent":"session-idle"');
  });

  test("hook status --json reports per host", () => {
    const root = makeRepo();
    const h = home();
    installHost(findHost("cursor")!, { root, home: h });
    const r = guard(["hook", "status", "--json"], root, { env: { HOME: h } });
    expect(r.code).toBe(0);
    const env = JSON.parse(r.stdout);
    expect(env.kind).toBe("hook.status");
    const cursor = env.data.hosts.find((x: { id: string }) => x.id === "cursor");
    expect(cursor.installed).toBe(true);
    expect(cursor.covers.sort()).toEqual(["pre-edit", "pre-shell", "stop"]);
    expect(env.data.directives.text).toContain("## guard");
  });

  test("pre-edit refuses the agent's edit of a config that holds guard's hooks", async () => {
    const root = makeRepo();
    installHost(findHost("claude-code")!, { root, home: home() });
    const payload = JSON.stringify({ session_id: "s", cwd: root, tool_name: "Edit", tool_input: { file_path: join(root, ".claude", "settings.local.json"), old_string: "a", new_string: "b" } });
    const r = await handleAgentEvent("claude-code", "pre-tool-use", payload, { processCwd: root });
    expect(r.verdict.code).toBe("EDIT_GUARD_HOOKS");
    expect(r.answer.exitCode).toBe(2);
  });
});

describe("committed configs are portable", () => {
  const run = (cmd: string, root: string, env: Record<string, string>) =>
    Bun.spawnSync(["sh", "-c", cmd], {
      cwd: root,
      env: { ...process.env, ...env },
      stdin: new TextEncoder().encode(JSON.stringify({ session_id: "s", cwd: root, tool_name: "Bash", tool_input: { command: "git push --force" } })),
      stdout: "pipe",
      stderr: "pipe",
    });

  test("--shared names guard, found on PATH; without it every tool call is blocked with one line naming the install", () => {
    const root = makeRepo();
    const h = home();
    installHost(findHost("claude-code")!, { root, home: h, scope: "shared" });
    const text = readFileSync(join(root, ".claude", "settings.json"), "utf8");
    expect(text).not.toContain(process.execPath);
    expect(text).not.toContain("GUARD_HOME");
    const cmd: string = JSON.parse(text).hooks.PreToolUse[0].hooks[0].command;
    const found = run(cmd, root, { PATH: `${guardOnPath()}:${process.env.PATH}` });
    expect(found.exitCode).toBe(2);
    expect(found.stderr.toString()).toContain("SHELL_GIT_FORCE_PUSH");
    const missing = run(cmd, root, { PATH: "/usr/bin:/bin", HOME: h });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr.toString().trim()).toBe(MISSING_GUARD);
  });

  test("the launcher also finds guard where install.sh puts it (~/.guard/bin)", () => {
    const root = makeRepo();
    const h = home();
    installHost(findHost("claude-code")!, { root, home: h, scope: "shared" });
    mkdirSync(join(h, ".guard", "bin"), { recursive: true });
    const shim = join(guardOnPath(), "guard");
    writeFileSync(join(h, ".guard", "bin", "guard"), readFileSync(shim));
    chmodSync(join(h, ".guard", "bin", "guard"), 0o755);
    const cmd: string = JSON.parse(readFileSync(join(root, ".claude", "settings.json"), "utf8")).hooks.PreToolUse[0].hooks[0].command;
    const r = run(cmd, root, { PATH: "/usr/bin:/bin", HOME: h });
    expect(r.stderr.toString()).toContain("SHELL_GIT_FORCE_PUSH");
  });
});

describe("uninstall leaves no diff", () => {
  test("a file in its own style (not JSON.stringify's) gets its exact bytes and mode back", () => {
    const root = makeRepo();
    const h = home();
    const path = join(root, ".claude", "settings.json");
    const original = '{ "permissions": {"allow": ["Bash(npm test:*)"]},\n  "model":"opus" }\n';
    write(path, original);
    chmodSync(path, 0o600);
    const cc = findHost("claude-code")!;
    expect(installHost(cc, { root, home: h, scope: "shared" }).action).toBe("updated");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const r = uninstallHost(cc, { root, home: h, scope: "shared" });
    expect(r.map((x) => x.action)).toEqual(["updated"]);
    expect(readFileSync(path, "utf8")).toBe(original);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  test("install for every host, then uninstall: the folders guard created are gone and git sees nothing", () => {
    const root = makeRepo();
    const h = home();
    for (const host of HOSTS) installHost(host, { root, home: h });
    const status = (...extra: string[]) => Bun.spawnSync(["git", "status", "--porcelain", ...extra], { cwd: root, stdout: "pipe" }).stdout.toString();
    // What guard created is there, kept out of git (.git/info/exclude) so it changes no test selection.
    expect(status()).toBe("");
    expect(status("--ignored").split("\n").filter((l) => l && l !== "!! .guard/").length).toBeGreaterThan(0);
    for (const host of HOSTS) uninstallHost(host, { root, home: h });
    expect(status()).toBe("");
    expect(status("--ignored").split("\n").filter((l) => l && l !== "!! .guard/")).toEqual([]);
    expect(hostStatus(root, h).filter((s) => s.detected.length > 0).map((s) => s.id)).toEqual([]);
  });

  test("a file edited after install keeps the edit: only guard's entries come out", () => {
    const root = makeRepo();
    const h = home();
    const cc = findHost("claude-code")!;
    installHost(cc, { root, home: h });
    const path = join(root, ".claude", "settings.local.json");
    const edited = JSON.parse(readFileSync(path, "utf8"));
    edited.model = "sonnet";
    writeFileSync(path, `${JSON.stringify(edited, null, 2)}\n`);
    uninstallHost(cc, { root, home: h });
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ model: "sonnet" });
  });
});
