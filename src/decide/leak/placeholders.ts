/** Values that only stand for a secret: documentation, templates, redactions. */
const MARKERS = /x{4,}|X{4,}|\*{3,}|\.{3}|…|<[^>]*>|\{\{|\$\{|your|example|placeholder|redacted|dummy|changeme|sample|insert|replace|fake|test_?key|0{8,}|1234567890/i;

export function isPlaceholder(value: string): boolean {
  if (MARKERS.test(value)) return true;
  // Few distinct characters after the prefix ("sk-aaaaaaaa..."): a pattern, not a key.
  const body = value.replace(/^[a-z]+[-_]/i, "");
  return new Set(body).size <= 4;
}

/** Words that stand for a password in connection-string documentation, and the well-known defaults of local databases. */
export const PASSWORD_PLACEHOLDERS = new Set(["password", "pass", "passwd", "pwd", "secret", "changeme", "pw", "mypassword", "yourpassword", "p@ssw0rd", "postgres", "root", "admin", "guest", "mysql", "redis", "toor"]);
