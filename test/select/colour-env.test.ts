// A test passes under guard (evidence and `guard run`) exactly when it passes under the project's plain
// runner: guard adds nothing to the environment the tests see, colour settings included (a runner started
// with NO_COLOR or FORCE_COLOR=0 failed commander's CLICOLOR_FORCE tests).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { colourJs, colourPytest } from "../../fixtures/select/colour.ts";
import { withRunners } from "../../fixtures/select/js-runner.ts";
import { applyScenario, buildProject, resetProject, type FixtureProject } from "../../fixtures/select/project.ts";
import { jsRunners } from "../evidence/runners.ts";
import { startTestEngine, type TestEngine } from "../helpers/engine.ts";
import { GUARD_MAIN } from "../helpers/repo.ts";

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
}, 60_000);
afterAll(() => engine?.stop());

/** The environment a user's shell would have: no colour settings of its own, no CI. */
function plainEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !["NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE", "CI"].includes(k)) env[k] = v;
  return env;
}

function sh(cmd: string[], cwd: string) {
  const p = Bun.spawnSync(cmd, { cwd, env: plainEnv(), stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode ?? -1, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
}

const PLAIN: Record<string, string[]> = {
  "node:test": ["node", "--test", "test/"],
  vitest: ["node_modules/.bin/vitest", "run"],
  jest: ["node_modules/.bin/jest"],
  pytest: ["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider"],
};

const projects: FixtureProject[] = [colourJs("node:test"), colourJs("vitest"), colourJs("jest"), colourPytest];

for (const project of projects) {
  describe(`${project.framework}: a colour test`, () => {
    let root: string;
    beforeAll(() => {
      root = buildProject(project.framework === "pytest" ? project : withRunners(project, jsRunners()));
    }, 240_000);

    test("passes under the plain runner, under guard's recording, and under guard run after an edit", () => {
      const plain = sh(PLAIN[project.framework]!, root);
      expect(plain.code, plain.stdout + plain.stderr).toBe(0);

      expect(sh([process.execPath, GUARD_MAIN, "init", "--json"], root).code).toBe(0);
      const ev = sh([process.execPath, GUARD_MAIN, "evidence", "--json"], root);
      const data = JSON.parse(ev.stdout).data as { tests: { total: number; passed: number; failed: number } };
      expect(data.tests).toMatchObject({ total: 1, passed: 1, failed: 0 });

      applyScenario(root, project.scenarios[0]!);
      try {
        const run = sh([process.execPath, GUARD_MAIN, "run", "--json"], root);
        const out = JSON.parse(run.stdout) as { data: { results: { outcome: string }[] } };
        expect(out.data.results.map((r) => r.outcome)).toEqual(["passed"]);
        expect(run.code).toBe(0);
      } finally {
        resetProject(root);
      }
    }, 240_000);
  });
}
