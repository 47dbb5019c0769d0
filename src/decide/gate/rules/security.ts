import type { GateRule } from "./types.ts";

const CODE = [".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".py", ".go", ".java", ".kt", ".rb", ".php", ".cs", ".rs"];
const SQL = String.raw`(?:SELECT\b[^"'\x60]*\bFROM|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM)`;

export const SECURITY_RULES: GateRule[] = [
  {
    id: "RULE-SQL-CONCAT",
    pack: "security",
    severity: "hard",
    title: "SQL built by string concatenation or interpolation",
    files: CODE,
    patterns: [
      // Each quote kind on its own, so the SQL text may hold the other one: "… name = '" + q + "'".
      new RegExp(String.raw`"[^"]*${SQL}[^"]*"\s*(?:\+|%|\.\s*format\s*\()`, "i"),
      new RegExp(String.raw`'[^']*${SQL}[^']*'\s*(?:\+|%|\.\s*format\s*\()`, "i"),
      new RegExp(String.raw`\x60[^\x60]*${SQL}[^\x60]*\$\{`, "i"),
      new RegExp(String.raw`\bf"[^"]*${SQL}[^"]*\{`, "i"),
      new RegExp(String.raw`\bf'[^']*${SQL}[^']*\{`, "i"),
      new RegExp(String.raw`(?:Sprintf|sprintf)\(\s*["\x60][^"\x60]*${SQL}[^"\x60]*%[sdv]`, "i"),
    ],
    fix: "pass values as query parameters (placeholders), never by building the SQL text",
    examples: {
      invalid: [
        { path: "src/users.ts", line: `db.query("SELECT * FROM users WHERE id = " + req.params.id);` },
        { path: "src/users.ts", line: "db.query(`DELETE FROM users WHERE id = ${id}`);" },
        { path: "app/users.py", line: `cur.execute(f"SELECT name FROM users WHERE id = {user_id}")` },
        { path: "app/users.py", line: `cur.execute("UPDATE users SET name = '%s'" % name)` },
        { path: "db/users.go", line: `db.Query(fmt.Sprintf("SELECT * FROM users WHERE id = %s", id))` },
        { path: "src/users.ts", line: `db.query("SELECT * FROM users WHERE name = '" + q + "'");` },
        { path: "src/users.js", line: `db.query('SELECT * FROM users WHERE name = "' + name + '"');` },
        { path: "app/users.py", line: `cur.execute(f"SELECT * FROM users WHERE name = '{q}'")` },
        { path: "app/users.py", line: `cur.execute("SELECT * FROM users WHERE name = '{}'".format(q))` },
        { path: "app/users.py", line: `cur.execute("DELETE FROM users WHERE name = '%s'" % q)` },
        { path: "db/users.go", line: `db.Query("SELECT * FROM users WHERE name = '" + q + "'")` },
      ],
      valid: [
        { path: "src/users.ts", line: `db.query("SELECT * FROM users WHERE id = $1", [req.params.id]);` },
        { path: "app/users.py", line: `cur.execute("SELECT name FROM users WHERE id = %s", (user_id,))` },
        { path: "app/users.py", line: `cur.execute("SELECT * FROM users WHERE name = '%s'", (q,))` },
        { path: "db/users.go", line: `db.Query("SELECT * FROM users WHERE name = $1", q)` },
        { path: "src/users.ts", line: `db.query("SELECT * FROM users WHERE name = ?", [q]);` },
        { path: "src/log.ts", line: `log("selected " + n + " rows from the cache");` },
      ],
    },
  },
  {
    id: "RULE-RAW-HTML",
    pack: "security",
    severity: "hard",
    title: "raw HTML sink (cross-site scripting)",
    files: [".js", ".jsx", ".ts", ".tsx", ".mjs", ".vue", ".svelte", ".html", ".py", ".jinja", ".j2", ".erb"],
    patterns: [
      /\.(?:inner|outer)HTML\s*\+?=(?!=)/,
      /\bdangerouslySetInnerHTML\b/,
      /\bdocument\.write(?:ln)?\s*\(/,
      /\.insertAdjacentHTML\s*\(/,
      /\bv-html\s*=/,
      /\{@html\s/,
      /\|\s*safe\s*\}\}/,
      /\bmark_safe\s*\(/,
    ],
    fix: "render text (textContent, framework escaping) or sanitize with a vetted sanitizer before inserting HTML",
    examples: {
      invalid: [
        { path: "src/view.ts", line: "el.innerHTML = comment.body;" },
        { path: "src/View.tsx", line: "<div dangerouslySetInnerHTML={{ __html: html }} />" },
        { path: "src/Note.vue", line: `<p v-html="note.text"></p>` },
        { path: "templates/page.html", line: "<div>{{ user.bio | safe }}</div>" },
      ],
      valid: [
        { path: "src/view.ts", line: "el.textContent = comment.body;" },
        { path: "src/view.ts", line: "if (el.innerHTML === '') show();" },
      ],
    },
  },
  {
    id: "RULE-UNSAFE-DESERIALIZE",
    pack: "security",
    severity: "hard",
    title: "unsafe deserialization (code execution on untrusted input)",
    files: CODE,
    patterns: [/\bpickle\.loads?\s*\(/, /\bcPickle\.loads?\s*\(/, /\bmarshal\.loads?\s*\(/, /\byaml\.load\s*\(/, /\bnew\s+ObjectInputStream\s*\(/, /\bunserialize\s*\(/, /\bnode-serialize\b/, /\bjsonpickle\.decode\s*\(/],
    unless: [/Loader\s*=\s*(?:yaml\.)?(?:C?SafeLoader|BaseLoader)/],
    fix: "use a data-only format (JSON, yaml.safe_load) or validate and authenticate the input first",
    examples: {
      invalid: [
        { path: "app/cache.py", line: "obj = pickle.loads(request.data)" },
        { path: "app/conf.py", line: "cfg = yaml.load(text)" },
        { path: "src/Read.java", line: "ObjectInputStream in = new ObjectInputStream(socket.getInputStream());" },
      ],
      valid: [
        { path: "app/conf.py", line: "cfg = yaml.safe_load(text)" },
        { path: "app/conf.py", line: "cfg = yaml.load(text, Loader=yaml.SafeLoader)" },
        { path: "app/cache.py", line: "obj = json.loads(request.data)" },
      ],
    },
  },
  {
    id: "RULE-SHELL-EVAL",
    pack: "security",
    severity: "hard",
    title: "eval or a shell command built from input",
    files: CODE,
    patterns: [
      /(?<![\w.])eval\s*\(/,
      /\bnew\s+Function\s*\(/,
      /(?<![\w.])exec\s*\(\s*(?:f["']|[\w.]+\s*\+|["'][^"']*["']\s*\+)/,
      /\bos\.system\s*\(/,
      /\bos\.popen\s*\(/,
      /\bshell\s*=\s*True\b/,
      /\bchild_process\b.*\bexec(?:Sync)?\s*\(|\bexec(?:Sync)?\s*\(\s*(?:\x60[^\x60]*\$\{|["'][^"']*["']\s*\+)/,
      /Runtime\.getRuntime\(\)\.exec\s*\(/,
      /exec\.Command\(\s*"(?:sh|bash)"\s*,\s*"-c"/,
    ],
    fix: "pass arguments as a list to a process API without a shell, and never evaluate input as code",
    examples: {
      invalid: [
        { path: "src/calc.js", line: "const result = eval(req.query.expr);" },
        { path: "app/run.py", line: `subprocess.run(cmd, shell=True)` },
        { path: "app/run.py", line: `os.system("convert " + filename)` },
        { path: "src/run.ts", line: "execSync(`git log ${branch}`);" },
        { path: "cmd/run.go", line: `exec.Command("sh", "-c", userCmd)` },
      ],
      valid: [
        { path: "app/run.py", line: `subprocess.run(["convert", filename], check=True)` },
        { path: "src/run.ts", line: `execFileSync("git", ["log", branch]);` },
        { path: "src/re.ts", line: "const m = re.exec(text);" },
      ],
    },
  },
  {
    id: "RULE-TLS-VERIFY-OFF",
    pack: "security",
    severity: "hard",
    title: "TLS certificate verification turned off",
    files: [],
    patterns: [
      /\bverify\s*=\s*False\b/,
      /\brejectUnauthorized\s*:\s*false\b/,
      /NODE_TLS_REJECT_UNAUTHORIZED\s*[=:]\s*["']?0/,
      /\bInsecureSkipVerify\s*:\s*true\b/,
      /\bssl\._create_unverified_context\b/,
      /\bCERT_NONE\b/,
      /\bcurl\b[^|;&]*\s(?:-k|--insecure)\b/,
      /\bstrict-ssl\s*=?\s*false\b/,
    ],
    fix: "keep verification on; trust a private CA by adding it to the trust store instead",
    examples: {
      invalid: [
        { path: "app/client.py", line: "r = requests.get(url, verify=False)" },
        { path: "src/client.ts", line: "const agent = new https.Agent({ rejectUnauthorized: false });" },
        { path: "net/client.go", line: "tls.Config{InsecureSkipVerify: true}" },
        { path: "scripts/fetch.sh", line: "curl -k https://internal/api" },
      ],
      valid: [
        { path: "app/client.py", line: "r = requests.get(url, verify=ca_bundle)" },
        { path: "src/client.ts", line: "const agent = new https.Agent({ ca });" },
      ],
    },
  },
  {
    id: "RULE-CORS-ANY",
    pack: "security",
    severity: "warn",
    title: "CORS allows every origin",
    files: [],
    patterns: [
      /Access-Control-Allow-Origin["']?\s*[:,]\s*["']?\*/i,
      /\borigin\s*:\s*["']\*["']/,
      /\ballow_origins\s*=\s*\[\s*["']\*["']\s*\]/,
      /\bCORS_(?:ORIGIN_)?ALLOW_ALL(?:_ORIGINS)?\s*=\s*True\b/,
      /\bAllowAllOrigins\s*:\s*true\b/,
    ],
    fix: "list the origins that may call this API",
    examples: {
      invalid: [
        { path: "src/server.ts", line: `res.setHeader("Access-Control-Allow-Origin", "*");` },
        { path: "src/server.ts", line: `app.use(cors({ origin: "*" }));` },
        { path: "app/main.py", line: `app.add_middleware(CORSMiddleware, allow_origins=["*"])` },
      ],
      valid: [
        { path: "src/server.ts", line: `app.use(cors({ origin: ["https://app.example.com"] }));` },
        { path: "src/server.ts", line: `res.setHeader("Access-Control-Allow-Origin", allowed);` },
      ],
    },
  },
  {
    id: "RULE-CLIENT-STORAGE-CREDENTIAL",
    pack: "security",
    severity: "hard",
    title: "credential kept in browser storage",
    files: [".js", ".jsx", ".ts", ".tsx", ".mjs", ".vue", ".svelte", ".html"],
    patterns: [
      /\b(?:localStorage|sessionStorage)\.setItem\s*\(\s*["'\x60][^"'\x60]*(?:token|jwt|password|passwd|secret|api[-_]?key|auth|session|credential)/i,
      /\b(?:localStorage|sessionStorage)\s*\[\s*["'][^"']*(?:token|jwt|password|secret|api[-_]?key|auth)[^"']*["']\s*\]\s*=/i,
      /\b(?:localStorage|sessionStorage)\.(?:token|jwt|password|secret|apiKey|authToken)\s*=/i,
    ],
    fix: "keep credentials in an HttpOnly, Secure cookie set by the server, not in script-readable storage",
    examples: {
      invalid: [
        { path: "src/auth.ts", line: `localStorage.setItem("authToken", res.token);` },
        { path: "src/auth.js", line: `sessionStorage["api_key"] = key;` },
      ],
      valid: [
        { path: "src/prefs.ts", line: `localStorage.setItem("theme", "dark");` },
      ],
    },
  },
];
