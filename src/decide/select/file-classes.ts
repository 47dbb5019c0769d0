import type { FileClass } from "./types.ts";

/**
 * How selection treats a file, as data. The first record whose pattern matches wins; a path no record
 * matches is "source" when guard has a grammar for it and "unanalysable" otherwise. Every record carries
 * examples that must match and must not match (test/select/file-classes.test.ts runs them).
 */
export interface FileClassRule {
  class: FileClass;
  /** Why files like these get this treatment. */
  why: string;
  /** Glob-like patterns on the repository-relative path: `**` any directories, `*` within one name. */
  patterns: string[];
  examples: { match: string[]; noMatch: string[] };
}

export const FILE_CLASS_RULES: readonly FileClassRule[] = [
  {
    class: "manifest",
    why: "dependency manifests and lockfiles change what every test runs against",
    patterns: [
      "**/package.json", "**/package-lock.json", "**/npm-shrinkwrap.json", "**/yarn.lock", "**/pnpm-lock.yaml", "**/bun.lock", "**/bun.lockb",
      "**/go.mod", "**/go.sum", "**/go.work", "**/go.work.sum",
      "**/pyproject.toml", "**/setup.py", "**/setup.cfg", "**/requirements*.txt", "**/requirements/*.txt", "**/constraints*.txt",
      "**/Pipfile", "**/Pipfile.lock", "**/poetry.lock", "**/uv.lock", "**/pdm.lock",
      "**/Cargo.toml", "**/Cargo.lock", "**/pom.xml", "**/build.gradle", "**/build.gradle.kts", "**/Gemfile", "**/Gemfile.lock",
    ],
    examples: { match: ["package.json", "web/pnpm-lock.yaml", "go.sum", "requirements-dev.txt", "pyproject.toml"], noMatch: ["src/package.ts", "docs/requirements.md"] },
  },
  {
    class: "test-infra",
    why: "test infrastructure (runner config, shared fixtures and helpers) can change the outcome of any test",
    patterns: [
      "**/conftest.py", "**/pytest.ini", "**/tox.ini", "**/noxfile.py", "**/.coveragerc",
      "**/vitest.config.*", "**/vitest.workspace.*", "**/vite.config.*", "**/jest.config.*", "**/jest.setup.*", "**/vitest.setup.*", "**/setupTests.*",
      "**/.mocharc*", "**/karma.conf.*", "**/playwright.config.*",
      "**/fixtures/**", "**/__fixtures__/**", "**/__mocks__/**", "**/test/helpers/**", "**/tests/helpers/**", "**/testutil/**", "**/testutils/**",
    ],
    examples: {
      match: ["conftest.py", "tests/conftest.py", "vitest.config.ts", "jest.config.js", "tests/fixtures/app.py", "test/helpers/repo.ts", "src/__mocks__/fs.js"],
      noMatch: ["tests/test_app.py", "src/config.ts", "src/fixturesheet.py"],
    },
  },
  {
    class: "test",
    why: "test files: a changed test runs itself, a new test always runs",
    patterns: [
      "**/test_*.py", "**/*_test.py", "**/tests.py",
      "**/*.test.*", "**/*.spec.*", "**/__tests__/**", "**/*_test.go",
      "**/test/**/*.js", "**/test/**/*.mjs", "**/test/**/*.cjs", "**/test/**/*.ts", "**/tests/**/*.js", "**/tests/**/*.ts",
    ],
    examples: {
      match: ["tests/test_app.py", "pkg/util_test.go", "src/sum.test.ts", "src/__tests__/a.js", "test/math.js", "app/tests.py"],
      noMatch: ["src/testing.py", "src/contest.ts", "pkg/test.go"],
    },
  },
  {
    class: "test-infra",
    why: "code inside a test folder that is not itself a test file is a shared helper of the tests",
    patterns: ["**/tests/**/*.py", "**/test/**/*.py", "**/testing/**/*.py"],
    examples: { match: ["tests/helpers.py", "tests/utils/db.py"], noMatch: ["src/app/tester.py"] },
  },
  {
    class: "build-config",
    why: "build and compiler configuration changes how every file is built",
    patterns: ["**/tsconfig*.json", "**/jsconfig*.json", "**/babel.config.*", "**/.babelrc*", "**/.swcrc", "**/Makefile", "**/*.mk", "**/webpack.config.*", "**/rollup.config.*", "**/esbuild.config.*", "**/.env", "**/.env.*", "**/.python-version", "**/.nvmrc", "**/.node-version", "**/MANIFEST.in"],
    examples: { match: ["tsconfig.json", "packages/a/tsconfig.build.json", "Makefile", ".nvmrc"], noMatch: ["src/make.ts"] },
  },
  {
    class: "docs",
    why: "documentation no test reads (unless evidence says a test reads it)",
    patterns: ["**/*.md", "**/*.rst", "**/*.adoc", "**/LICENSE*", "**/COPYING*", "**/CHANGES*", "**/CHANGELOG*", "**/AUTHORS*", "docs/**/*.txt", "**/.gitignore", "**/.gitattributes", "**/.editorconfig"],
    examples: { match: ["README.md", "docs/api.rst", "LICENSE.txt", "CHANGES.rst", ".gitignore"], noMatch: ["src/readme.py"] },
  },
];

const compiled = new Map<string, RegExp>();

export function globToRegExp(glob: string): RegExp {
  let re = compiled.get(glob);
  if (re) return re;
  let s = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*" && glob[i + 1] === "*") {
      // `**/` matches zero or more directories; a trailing `**` matches everything below.
      if (glob[i + 2] === "/") {
        s += "(?:.*/)?";
        i += 2;
      } else {
        s += ".*";
        i += 1;
      }
    } else if (c === "*") s += "[^/]*";
    else if (c === "?") s += "[^/]";
    else s += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  re = new RegExp(`^${s}$`);
  compiled.set(glob, re);
  return re;
}

export function matchingRule(path: string): FileClassRule | undefined {
  return FILE_CLASS_RULES.find((r) => r.patterns.some((p) => globToRegExp(p).test(path)));
}

/** The class of a path; `hasGrammar` says whether guard can parse it. */
export function classifyPath(path: string, hasGrammar: boolean): { class: FileClass; why: string } {
  const rule = matchingRule(path);
  if (rule) {
    // A test-folder pattern only makes code a test; a data file in a test folder is an input of the tests.
    if (rule.class === "test" && !hasGrammar) return { class: "unanalysable", why: "a file in a test folder that guard cannot parse" };
    return { class: rule.class, why: rule.why };
  }
  if (hasGrammar) return { class: "source", why: "source code guard parses" };
  return { class: "unanalysable", why: "a file type guard has no analysis for" };
}
