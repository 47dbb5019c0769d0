// The other pillars of guard post on scripted repositories: invariants, hygiene, simplicity, domains,
// dirty trees, an unreadable diff, and the impact range from the real code graph.
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildGateRepo, edit, removeRepo, write } from "../../fixtures/gate/build.ts";
import { detectDomains } from "../../src/decide/gate/domains.ts";
import { DRAFT_NAMES } from "../../src/decide/gate/hygiene.ts";
import { simplicity } from "../../src/decide/gate/simplicity.ts";
import { DUPLICATES } from "../../src/decide/gate/simplicity-list.ts";
import { inScope } from "../../src/decide/gate/scope.ts";
import { loadInvariants } from "../../src/decide/gate/invariants.ts";
import { startTestEngine } from "../helpers/engine.ts";
import { guard, makeRepo } from "../helpers/repo.ts";

const FAST = { gate: { graph: "never", tests: false, build: false } };
const repos: string[] = [];
afterAll(() => repos.forEach(removeRepo));
const fresh = (cfg: Record<string, unknown> = FAST) => {
  const r = buildGateRepo(cfg);
  repos.push(r);
  return r;
};
const postJson = (root: string) => JSON.parse(guard(["post", "--json"], root).stdout).data;
const codes = (d: { findings: { code: string }[] }) => d.findings.map((f) => f.code);

describe("invariants", () => {
  test("a new violation of forbid or require is INV-VIOLATED; a violation that was there before is not the task's", () => {
    const root = fresh();
    edit(root, "guard.invariants.json", (s) => s); // unchanged; baseline has no violations
    guard(["pre", "t", "--scope", "app"], root);
    edit(root, "app/dates.py", (s) => s.replace("UTC = timezone.utc", "ZONE = timezone.utc").replaceAll("tzinfo=UTC", "tzinfo=ZONE"));
    edit(root, "app/stamp.py", (s) => `${s}print("debug")\n`);
    const d = postJson(root);
    const inv = d.findings.filter((f: { code: string }) => f.code === "INV-VIOLATED").map((f: { file: string; line?: number; message: string }) => `${f.file}:${f.line ?? "-"}: ${f.message.split(" (")[0]}`);
    // A forbid names the line of the first match; a require has no line to name.
    const printLine = readFileSync(join(root, "app/stamp.py"), "utf8").split("\n").indexOf('print("debug")') + 1;
    expect(inv).toEqual(["app/dates.py:-: invariant dates-utc no longer holds", `app/stamp.py:${printLine}: invariant no-print no longer holds`]);
  });

  test("pre-existing violations are baselined", () => {
    const root = fresh();
    edit(root, "app/stamp.py", (s) => `${s}print("old")\n`);
    Bun.spawnSync(["git", "commit", "-qam", "old print"], { cwd: root, env: { ...process.env, GIT_AUTHOR_NAME: "a", GIT_AUTHOR_EMAIL: "a@a", GIT_COMMITTER_NAME: "a", GIT_COMMITTER_EMAIL: "a@a" } });
    guard(["pre", "t", "--scope", "app"], root);
    edit(root, "app/stamp.py", (s) => `${s}\n# unrelated\n`);
    expect(codes(postJson(root))).not.toContain("INV-VIOLATED");
  });

  test("relaxing an invariant (a narrower glob) is INV-WEAKENED; a bad invariant file refuses pre", () => {
    const root = fresh();
    guard(["pre", "t", "--scope", "app", "--scope", "guard.invariants.json"], root);
    edit(root, "guard.invariants.json", (s) => s.replace('"app/**"', '"app/dates.py"'));
    expect(codes(postJson(root))).toContain("INV-WEAKENED");
    const other = fresh();
    write(other, ".guard/invariants.json", JSON.stringify([{ id: "x", files: ["**"], forbid: "(" }]));
    const r = guard(["pre", "t"], other);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("invariant x: bad regular expression");
  });
});

describe("hygiene", () => {
  test("draft-named and orphan files; a removed CSS class and JSON key still referenced", () => {
    const root = fresh();
    write(root, "web/site.css", ".card { color: red; }\n.banner { color: blue; }\n");
    write(root, "web/index.html", '<div class="banner">hi</div>\n');
    write(root, "web/i18n.json", JSON.stringify({ errors: { notFound: "Not found" }, title: "Home" }));
    write(root, "web/app.js", 'show(t("errors.notFound"));\n');
    Bun.spawnSync(["git", "add", "-A"], { cwd: root });
    Bun.spawnSync(["git", "-c", "user.name=a", "-c", "user.email=a@a", "commit", "-qm", "web"], { cwd: root });
    guard(["pre", "t", "--scope", "web", "--scope", "app"], root);
    write(root, "web/site.css", ".card { color: red; }\n");
    write(root, "web/i18n.json", JSON.stringify({ title: "Home" }));
    write(root, "app/dates_old.py", "x = 1\n");
    write(root, "app/helpers.py", "def helper():\n    return 1\n");
    const d = postJson(root);
    const hyg = d.findings.filter((f: { pillar: string }) => f.pillar === "hygiene").map((f: { code: string; file: string }) => `${f.code} ${f.file}`);
    expect(hyg.sort()).toEqual(["HYG-DEAD-REFERENCE web/i18n.json", "HYG-DEAD-REFERENCE web/site.css", "HYG-DRAFT-FILE app/dates_old.py", "HYG-ORPHAN app/helpers.py"].sort());
  });

  test("draft names as data", () => {
    for (const n of ["notes_draft.md", "dates_old.py", "api.bak", "view copy.tsx", "report (1).pdf", "main.py.orig", "parser_v2.ts", "scratch.js"]) expect(DRAFT_NAMES.some((re) => re.test(n))).toBe(true);
    for (const n of ["dates.py", "oldest.py", "copyright.md", "newsletter.ts", "template.html"]) expect(DRAFT_NAMES.some((re) => re.test(n))).toBe(false);
  });
});

describe("simplicity", () => {
  const pkg = (deps: Record<string, string>) => JSON.stringify({ name: "x", dependencies: deps });
  test("a new dependency the platform covers, and a second one for the same job, are flagged; existing ones are not", () => {
    const f = simplicity([{ path: "package.json", status: "modified", before: pkg({ dayjs: "1" }), after: pkg({ dayjs: "1", "node-fetch": "3", moment: "2", express: "5" }), added: [] }]);
    expect(f.map((x) => `${x.code} ${x.message}`)).toEqual([
      "SIMPLE-PLATFORM-DUPLICATE new dependency node-fetch duplicates the platform: global fetch (Node 18+, Bun, browsers)",
      "SIMPLE-DEPENDENCY-DUPLICATE new dependency moment does the same job as dayjs, which the project already uses",
    ]);
    expect(simplicity([{ path: "requirements.txt", status: "modified", before: "httpx==0.27\n", after: "httpx==0.27\nrequests>=2\nmock\n", added: [] }]).map((x) => x.code)).toEqual(["SIMPLE-DEPENDENCY-DUPLICATE", "SIMPLE-PLATFORM-DUPLICATE"]);
  });
  test("every record names what it duplicates", () => {
    for (const d of DUPLICATES) expect(Boolean(d.platform || d.family)).toBe(true);
  });
});

describe("pre", () => {
  test("domains as data: frontend + backend is fullstack, infra adds its pack", () => {
    const root = makeRepo({ "package.json": JSON.stringify({ dependencies: { react: "18", express: "4" } }), Dockerfile: "FROM node:22\n" });
    repos.push(root);
    const d = detectDomains(root);
    expect(d.domains).toEqual(["fullstack", "infra"]);
    expect(d.rulePacks).toEqual(["backend", "frontend", "infra", "secrets", "security"]);
  });

  test("a dirty tree is refused unless --allow-dirty, which snapshots it; untouched dirty files are not judged", () => {
    const root = fresh();
    edit(root, "README.md", (s) => `${s}wip\n`);
    const refused = guard(["pre", "t", "--scope", "app"], root);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("uncommitted change (README.md)");
    expect(guard(["pre", "t", "--scope", "app", "--allow-dirty"], root).code).toBe(0);
    edit(root, "app/dates.py", (s) => `${s}\n`);
    const d = postJson(root);
    expect(d.files).toEqual(["app/dates.py"]);
    expect(d.notJudged).toEqual([{ path: "README.md", why: "dirty before the task and unchanged since" }]);
    expect(d.verdict).toBe("APPROVED");
  });

  test("a second pre says which open task it replaces", () => {
    const root = fresh();
    expect(guard(["pre", "first task", "--scope", "app"], root).code).toBe(0);
    const second = guard(["pre", "second task", "--scope", "app"], root);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('It replaces the open task "first task"');
  });

  test("scope globs: a folder covers what is below it", () => {
    expect(inScope("app/x/y.py", ["app"])).toBe(true);
    expect(inScope("apps/y.py", ["app"])).toBe(false);
    expect(inScope("src/a.test.ts", ["src/**/*.test.ts"])).toBe(true);
  });

  test("--widen is reported by post", () => {
    const root = fresh();
    guard(["pre", "t", "--scope", "app/dates.py"], root);
    expect(guard(["pre", "--widen", "--scope", "README.md"], root).code).toBe(0);
    edit(root, "README.md", (s) => `${s}more\n`);
    const d = postJson(root);
    expect(d.findings.map((f: { code: string; severity: string }) => `${f.code}:${f.severity}`)).toEqual(["SCOPE-WIDENED:warn"]);
  });
});

describe("post when the diff cannot be read", () => {
  test("a base commit that does not exist is REVISE with the reason", () => {
    const root = fresh();
    guard(["pre", "t", "--scope", "app"], root);
    const p = join(root, ".guard", "session.json");
    const s = JSON.parse(readFileSync(p, "utf8"));
    s.base = "0123456789abcdef0123456789abcdef01234567";
    writeFileSync(p, JSON.stringify(s));
    const r = guard(["post"], root);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain("DIFF-UNREADABLE");
    expect(r.stdout).toContain("guard cannot judge what it cannot see");
  });
  test("no task: a clear one-line error", () => {
    const root = fresh();
    const r = guard(["post"], root);
    expect(r.code).toBe(64);
    expect(r.stderr.trim().split("\n").length).toBe(1);
    expect(r.stderr).toContain("no task recorded");
  });
});

describe("impact range from the code graph", () => {
  test("symbols in scope, files that call them, tests among them (real FalkorDB)", async () => {
    const engine = await startTestEngine();
    try {
      const root = fresh({ gate: { graph: "always", tests: false, build: false } });
      const r = JSON.parse(guard(["pre", "t", "--scope", "app/dates.py", "--json"], root).stdout).data.session.impact;
      expect(r.source).toBe("graph");
      expect(r.symbols).toEqual(["app/dates.py::parse_date", "app/dates.py::format_date", "app/dates.py::describe"]);
      expect(r.referencingFiles).toEqual(["app/cli.py", "app/stamp.py", "tests/test_dates.py"]);
      expect(r.tests).toEqual(["tests/test_dates.py::test_round_trip", "tests/test_dates.py::test_stamp"]);
      expect(r.invariants).toEqual(["no-print", "dates-utc"]);
    } finally {
      await engine.stop();
    }
  }, 120_000);
});

describe("invariant file errors name the key", () => {
  test("a wrong type inside one invariant points at it, not at the root", () => {
    const root = makeRepo({ "guard.invariants.json": JSON.stringify([{ id: "no-print", files: "app/**", forbid: "print\\(" }]) });
    repos.push(root);
    expect(() => loadInvariants(root)).toThrow("guard.invariants.json at `0.files`: expected an array of globs");
    writeFileSync(join(root, "guard.invariants.json"), JSON.stringify({ invariants: [{ id: "", files: ["a"] }] }));
    expect(() => loadInvariants(root)).toThrow("guard.invariants.json at `invariants.0.id`: expected a non-empty id");
  });
});
