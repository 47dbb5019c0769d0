import { B64URL, UPPER_DIGITS, b64url, fake, fakeJwt } from "./fake.ts";
import { ASSIGNMENT_RULES } from "./assignments.ts";
import { PASSWORD_PLACEHOLDERS } from "./placeholders.ts";
import type { LeakRule } from "./types.ts";
import { VENDOR_RULES } from "./vendors.ts";
import { SAAS_RULES } from "./vendors-saas.ts";

const P = (...parts: string[]) => parts.join("");

function jwtHeaderHasAlg(token: string): boolean {
  const header = token.split(".")[0] ?? "";
  try {
    const json = JSON.parse(Buffer.from(header, "base64url").toString("utf8"));
    return typeof json === "object" && json !== null && typeof json.alg === "string";
  } catch {
    return false;
  }
}

/** Vendor credentials, most specific first (a finding inside an earlier, longer one is dropped). */
export const CREDENTIAL_RULES: LeakRule[] = [
  {
    id: "github-app-installation-token",
    kind: "credential",
    description: "GitHub App installation token in the long form ghs_<app id>_<JWT>",
    pattern: /ghs_[0-9]{1,12}_[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
    examples: { flag: () => [P("token ", "ghs", "_", "123456", "_", fakeJwt(3))], pass: ["ghs_123_abc", "ghs_..."] },
  },
  {
    id: "github-fine-grained-pat",
    kind: "credential",
    description: "GitHub fine-grained personal access token",
    pattern: /github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}(?![A-Za-z0-9])/g,
    examples: { flag: () => [P("github", "_pat_", fake(22, undefined, 5), "_", fake(59, undefined, 6))], pass: ["github_pat_...", "github_pat_xxxxxxxxxxxxxxxxxxxxxx_yyyy"] },
  },
  {
    id: "github-token",
    kind: "credential",
    description: "GitHub classic token (personal, OAuth, user-to-server, server-to-server, refresh)",
    pattern: /gh[pousr]_[A-Za-z0-9]{36,255}/g,
    examples: {
      flag: () => [P("gh", "p_", fake(36, undefined, 11)), P("export GH_TOKEN=", "gh", "s_", fake(36, undefined, 12)), P("gh", "o_", fake(40, undefined, 13)), P("x_", "gh", "p_", fake(36, undefined, 14)), P("MY_TOKEN_", "gh", "p_", fake(36, undefined, 15)), P("gh", "p_", fake(36, undefined, 16), "_suffix")],
      pass: ["ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", "ghp_short", "the ghp_ prefix"],
    },
  },
  {
    id: "anthropic-api-key",
    kind: "credential",
    description: "Anthropic API key",
    pattern: /(?<![A-Za-z0-9])sk-ant-[A-Za-z0-9_-]{32,}/g,
    examples: { flag: () => [P("sk-", "ant-", "api03-", fake(93, B64URL, 21)), P("key=", "sk-", "ant-", "admin01-", fake(60, B64URL, 22))], pass: ["sk-ant-...", "sk-ant-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"] },
  },
  {
    id: "openai-api-key",
    kind: "credential",
    description: "OpenAI API key (legacy, project, service account, admin)",
    pattern: /(?<![A-Za-z0-9])sk-(?!ant-)(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{32,}/g,
    examples: { flag: () => [P("sk-", "proj-", fake(100, B64URL, 31)), P("OPENAI_API_KEY=", "sk-", fake(48, undefined, 32))], pass: ["sk-...", "<your key>", "sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "task-runner-configuration-file-name-here"] },
  },
  {
    id: "aws-access-key-id",
    kind: "credential",
    description: "AWS access key id",
    pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z2-7]{16}(?![A-Za-z0-9])/g,
    examples: { flag: () => [P("AK", "IA", fake(16, UPPER_DIGITS, 41)), P("aws_access_key_id = ", "AS", "IA", fake(16, UPPER_DIGITS, 42))], pass: ["AKIAIOSFODNN7EXAMPLE", "AKIAXXXXXXXXXXXXXXXX", "AKIA1234"] },
  },
  {
    id: "aws-secret-access-key",
    kind: "credential",
    description: "AWS secret access key next to its name",
    pattern: /\baws_secret_access_key\s*[=:]\s*["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi,
    group: 1,
    examples: { flag: () => [P("aws_secret_", "access_key = ", fake(40, undefined, 51))], pass: ["aws_secret_access_key = <your secret>", "aws_secret_access_key"] },
  },
  {
    id: "gitlab-token",
    kind: "credential",
    description: "GitLab personal, deploy, runner, CI/CD or trigger token",
    pattern: /(?<![A-Za-z0-9])(?:glpat|gldt|glrt|glcbt|glptt|glft|glimt|glagent)-[A-Za-z0-9_-]{20,}/g,
    examples: { flag: () => [P("gl", "pat-", fake(20, undefined, 61)), P("gl", "rt-", fake(26, undefined, 62))], pass: ["glpat-xxxxxxxxxxxxxxxxxxxx", "glpat-short"] },
  },
  {
    id: "slack-token",
    kind: "credential",
    description: "Slack bot, user, app-level or refresh token",
    pattern: /(?<![A-Za-z0-9])(?:xox[abposre]|xapp)-(?:[0-9]+-)*[A-Za-z0-9-]{10,}/g,
    examples: { flag: () => [P("xo", "xb-", fake(13, "0123456789", 73), "-", fake(13, "0123456789", 74), "-", fake(24, undefined, 71)), P("xo", "xp-", fake(40, undefined, 72)), P("SLACK_", "xa", "pp-1-", fake(11, undefined, 75), "-", fake(13, "0123456789", 76), "-", fake(64, "0123456789abcdef", 77))], pass: ["xoxb-...", "xoxb-xxxxxxxxxxxxxx"] },
  },
  {
    id: "slack-webhook",
    kind: "credential",
    description: "Slack incoming webhook URL",
    pattern: /https:\/\/hooks\.slack\.com\/services\/T[A-Z0-9]{6,}\/B[A-Z0-9]{6,}\/[A-Za-z0-9]{20,}/g,
    examples: { flag: () => [P("https://hooks.", "slack.com/services/T", fake(9, UPPER_DIGITS, 81), "/B", fake(9, UPPER_DIGITS, 82), "/", fake(24, undefined, 83))], pass: ["https://hooks.slack.com/services/T000/B000/XXXX"] },
  },
  {
    id: "stripe-live-key",
    kind: "credential",
    description: "Stripe live secret or restricted key",
    pattern: /(?<![A-Za-z0-9])(?:sk|rk)_live_[A-Za-z0-9]{20,}(?![A-Za-z0-9])/g,
    examples: { flag: () => [P("sk", "_live_", fake(24, undefined, 91)), P("rk", "_live_", fake(99, undefined, 92))], pass: ["sk_test_abcdefghijklmnopqrstuvwx", "pk_live_abcdefghijklmnopqrstuvwx", "sk_live_xxxxxxxxxxxxxxxxxxxxxxxx"] },
  },
  ...VENDOR_RULES,
  ...SAAS_RULES,
  {
    id: "private-key-block",
    kind: "credential",
    description: "PEM private key block (RSA, EC, OpenSSH, PGP, PKCS#8, encrypted)",
    pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|[\s\S]*$)/g,
    examples: {
      flag: () => [
        P("-----BEGIN ", "RSA PRIVATE KEY-----\n", fake(64, undefined, 101), "\n", fake(64, undefined, 102), "\n-----END RSA ", "PRIVATE KEY-----\n"),
        P("-----BEGIN ", "OPENSSH PRIVATE KEY-----\n", fake(70, undefined, 103), "\n"),
      ],
      pass: ["-----BEGIN PUBLIC KEY-----\nabc\n-----END PUBLIC KEY-----", "-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----"],
    },
  },
  {
    id: "jwt",
    kind: "credential",
    description: "JSON Web Token (its header decodes to JSON with `alg`)",
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{16,}/g,
    validate: jwtHeaderHasAlg,
    examples: {
      flag: () => [P("Authorization: Bearer ", fakeJwt(111))],
      pass: [`${b64url(JSON.stringify({ typ: "x", kid: "k" }))}.eyJzdWIiOiJ4In0.${"abcdefghijklmnopqrstuvwxyz"}`, "eyJhbGciOi.short"],
    },
  },
  {
    id: "uri-password",
    kind: "credential",
    description: "password inside a connection URI (scheme://user:password@host)",
    pattern: /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@'"]+:([^\s@/'"]+)@[^\s/?#'"]+/gi,
    group: 1,
    validate: (pw) => !PASSWORD_PLACEHOLDERS.has(pw.toLowerCase()) && !/^[$%<{*]/.test(pw),
    examples: {
      flag: () => [P("postgres://app:", fake(16, undefined, 121), "@db.internal:5432/app"), P("redis://default:", fake(12, undefined, 122), "@cache:6379")],
      pass: ["postgres://user:password@localhost/db", "postgres://postgres:postgres@localhost:5432/app", "mysql://root:${DB_PASSWORD}@db/app", "https://example.org/a:b@c", "redis://localhost:6379"],
    },
  },
  ...ASSIGNMENT_RULES,
];
