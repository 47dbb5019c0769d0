import { fake, P } from "./fake.ts";
import { PASSWORD_PLACEHOLDERS } from "./placeholders.ts";
import type { LeakRule } from "./types.ts";

/**
 * A value that is code or a reference, not a password: a name (`string`, `None`, `req.body.password`), a
 * call (`getpass()`), an expansion or template (`${X}`, `{{ x }}`, `%s`, `<pw>`), a path to a secret
 * file (`/run/secrets/db`), a vault tag (`!vault`), or digits too few to be one.
 */
export function looksLikePasswordValue(value: string): boolean {
  if (PASSWORD_PLACEHOLDERS.has(value.toLowerCase())) return false;
  if (/^[$%<{[(!@*&/~.\\]/.test(value)) return false;
  if (/[()]/.test(value)) return false;
  if (/^[A-Za-z_.]+$/.test(value) && !randomLetters(value)) return false;
  if (/^[0-9]{1,7}$/.test(value)) return false;
  return value.length >= 6;
}

/** Mixed-case letters with no word shape (not PascalCase, camelCase, snake or dotted): a generated password. */
function randomLetters(value: string): boolean {
  if (value.length < 10 || /[_.]/.test(value) || /^[a-z]*(?:[A-Z][a-z]+)+$/.test(value)) return false;
  return (value.match(/[A-Z]/g)?.length ?? 0) >= 4 && (value.match(/[a-z]/g)?.length ?? 0) >= 4;
}

/**
 * `password: …` / `password = …` / `"password": "…"` in YAML, INI, TOML, .env, JSON and properties files
 * (also `DB_PASSWORD=`, `PGPASSWORD=`, `spring.datasource.password=`, `SMTP_PASS=`). Values that look like code are
 * left alone (see looksLikePasswordValue), so a typed field or a lookup is not a finding.
 */
export const ASSIGNMENT_RULES: LeakRule[] = [
  {
    id: "password-assignment",
    kind: "credential",
    description: "a password written as a value in a config file (YAML, INI, TOML, .env, JSON, properties)",
    // The key's prefix is a lookbehind, so the engine starts only at "pass" (linear in the payload).
    pattern: /(?<=(?:^|[^A-Za-z0-9_.-])["']?[A-Za-z0-9_.-]{0,40})(?:password|passwd|passphrase|(?<=[A-Za-z0-9][_.-])pass)["']?[ \t]*(?::=|:|=(?![=>~]))[ \t]*["']?([^\s"'#;,]+)/gi,
    group: 1,
    validate: looksLikePasswordValue,
    examples: {
      flag: () => [
        P("database:\n  pass", "word: ", fake(14, undefined, 501), "\n"),
        P("[smtp]\npass", "word = \"", fake(12, undefined, 502), "\"\n"),
        P("DB_PASS", "WORD=", fake(16, undefined, 503)),
        P('{"user": "app", "pass', 'word": "', fake(12, undefined, 504), '"}'),
        P("SMTP_", "PASS=", fake(10, undefined, 505)),
      ],
      pass: [
        "password: string;",
        'password = os.getenv("DB_PASSWORD")',
        "password: ${DB_PASSWORD}",
        "password: changeme",
        "password_min_length = 12",
        "if password == other:",
        "password: req.body.password",
        "password: {{ vault_db_password }}",
        "password_file: /run/secrets/db",
        "pass = 1",
        "password: getpass()",
        "password: PasswordFieldWidget",
        "password = getPasswordFromVault",
      ],
    },
  },
];
