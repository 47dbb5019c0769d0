import { basename, resolve } from "node:path";
import { isSecretFilePath, secretVariableIn } from "../leak/references.ts";
import { knownHarmless } from "../leak/secret-files.ts";
import type { Operation } from "./types.ts";

/**
 * What a command line would let out, read from its operations (after wrappers, `sh -c` and expansion):
 * one fact per secret and way out. The emission rules (emission-rules.ts) turn facts into decisions.
 * A subject names the file or the variable, never a value.
 */
export interface Emission {
  rule: string;
  program: string;
  subject: string;
}

/** Programs that send what they are given over the network. */
const NETWORK = new Set(["curl", "wget", "nc", "ncat", "netcat", "socat", "telnet", "scp", "sftp", "rsync", "ssh", "http", "https", "xh", "ftp", "lftp", "aws", "gsutil", "gcloud", "rclone", "azcopy", "gh"]);
/** Network programs that send their stdin whatever their arguments say. */
const SENDS_STDIN = new Set(["nc", "ncat", "netcat", "socat", "telnet", "ssh", "http", "https", "xh"]);
/** Programs that print (a transform of) the files they are given. */
const PRINTS_FILES = new Set(["cat", "head", "tail", "tac", "nl", "less", "more", "bat", "batcat", "base64", "base32", "xxd", "od", "hexdump", "strings", "zcat", "gzip", "bzip2", "xz", "jq", "yq", "sort", "uniq", "cut", "column", "paste", "fold", "rev", "grep", "egrep", "fgrep", "rg", "ag", "sed", "awk", "gawk", "tr", "openssl", "diff", "cmp", "tar", "zip", "view", "vim", "vi", "nano", "emacs", "python", "python3", "node", "ruby", "perl"]);
/** The first operand of these is a pattern or a script, not a file. */
const PATTERN_FIRST = new Set(["grep", "egrep", "fgrep", "rg", "ag", "sed", "awk", "gawk", "jq", "yq"]);
/** Output that says nothing of the content: counts, digests, silence. */
const REVEALS_NOTHING = new Set(["wc", "sha256sum", "sha1sum", "sha512sum", "md5sum", "cksum", "shasum", "b2sum", "true"]);
const QUIET = /^(?:-[a-zA-Z]*[qcl][a-zA-Z]*|--quiet|--silent|--count|--files-with-matches)$/;
/** Directories whose whole content is secret (`scp -r ~/.ssh host:`). */
const SECRET_DIRS = new Set([".ssh", ".aws", ".gnupg", ".kube", ".docker", ".config/gcloud"]);

/** Programs that copy files to where their last operand says (a remote one sends them away). */
const COPIES = new Set(["scp", "sftp", "rsync", "aws", "gsutil", "gcloud", "rclone", "azcopy", "gh"]);
/** Options whose value is the next word, per program (`scp -i ~/.ssh/id_rsa` names the key it logs in with, it does not send it). */
const VALUE_OPTIONS: Record<string, Set<string>> = {
  scp: new Set(["-i", "-F", "-o", "-P", "-c", "-l", "-S", "-J", "-D", "-X"]),
  sftp: new Set(["-i", "-F", "-o", "-P", "-c", "-l", "-S", "-J", "-D", "-b", "-B", "-R", "-s"]),
  rsync: new Set(["-e", "--rsh", "--exclude", "--include", "--filter", "-f", "--password-file", "--exclude-from", "--include-from", "--files-from", "--chmod", "--chown", "--port"]),
  aws: new Set(["--profile", "--region", "--endpoint-url", "--exclude", "--include", "--sse", "--acl", "--storage-class", "--content-type"]),
  gh: new Set(["-d", "--desc", "-f", "--filename", "-R", "--repo"]),
};

const ENVIRON = /^\/proc\/(?:self|\d+|\$\$)\/environ$/;
const secretIn = (op: Operation) => (p: string) => (isSecretFilePath(p) && !knownHarmless(resolve(op.cwd ?? "/", p))) || SECRET_DIRS.has(basename(p.replace(/\/+$/, ""))) || ENVIRON.test(p);
function operands(op: Operation): string[] {
  const takesValue = VALUE_OPTIONS[op.program];
  const out: string[] = [];
  for (let i = 1; i < op.argv.length; i++) {
    const w = op.argv[i]!;
    if (takesValue?.has(w)) i++;
    else if (!w.startsWith("-")) out.push(w);
  }
  return out;
}

/** Files a network program is told to send (curl -d @f / -F x=@f / -T f, wget --post-file, httpie @f). */
function sentFiles(op: Operation): string[] {
  const out: string[] = [];
  const a = op.argv;
  const value = (i: number, flag: string): string | undefined => {
    const w = a[i]!;
    if (w === flag) return a[i + 1];
    if (flag.startsWith("--") && w.startsWith(`${flag}=`)) return w.slice(flag.length + 1);
    if (!flag.startsWith("--") && w.startsWith(flag) && w.length > flag.length) return w.slice(flag.length);
    return undefined;
  };
  for (let i = 1; i < a.length; i++) {
    for (const flag of ["-d", "--data", "--data-ascii", "--data-binary", "--data-urlencode", "--json", "-F", "--form", "-T", "--upload-file", "--post-file", "--body-file"]) {
      const v = value(i, flag);
      if (v === undefined) continue;
      const m = /^(?:[^=@<]*[=])?[@<]([^;]+)/.exec(v) ?? /^[^@]*@([^;]+)/.exec(v);
      if (flag === "-T" || flag === "--upload-file" || flag === "--post-file" || flag === "--body-file") out.push(v);
      else if (m?.[1]) out.push(m[1]);
    }
    if (op.program === "http" || op.program === "https" || op.program === "xh") {
      const m = /^(?:[\w.-]+(?:=|:=)?)?@(.+)$/.exec(a[i]!);
      if (m?.[1]) out.push(m[1]);
    }
  }
  return out;
}

const isRemote = (w: string) => /^(?:[\w.-]+@)?[\w.-]+:(?!\/\/)/.test(w) && !/^[./~]/.test(w) || /^(?:rsync|s3|gs|az|sftp|ftp):\/\//.test(w);

/** Local secret files a copy program sends to a remote destination (scp, rsync, aws s3 cp, rclone, gh gist create). */
function copiedOut(op: Operation): string[] {
  if (!COPIES.has(op.program)) return [];
  const ops = operands(op);
  if (op.program === "gh") return ops[0] === "gist" && ops[1] === "create" ? ops.slice(2) : [];
  const dest = ops[ops.length - 1];
  if (!dest || !isRemote(dest)) return [];
  return ops.slice(0, -1).filter((w) => !isRemote(w));
}

/** Does a network program read its stdin (and so send what is piped into it)? */
function readsStdin(op: Operation): boolean {
  if (SENDS_STDIN.has(op.program)) return true;
  if (op.program === "gh") return op.argv.includes("-");
  return sentFiles(op).some((f) => f === "-" || f === "/dev/stdin") || (op.program === "aws" && op.argv.includes("-"));
}

/** What a command prints: a secret file, a secret variable or the whole environment (undefined: nothing secret). */
function secretSource(op: Operation): { kind: "file" | "variable" | "environment"; subject: string } | undefined {
  const isSecretPath = secretIn(op);
  if (op.stdinFile && isSecretPath(op.stdinFile) && !NETWORK.has(op.program)) return { kind: ENVIRON.test(op.stdinFile) ? "environment" : "file", subject: op.stdinFile };
  const args = op.argv.slice(1);
  const bareEnv = op.program === "env" && args.every((w) => w.startsWith("-")) && !args.some((w) => w === "-i" || w === "--ignore-environment");
  if (bareEnv || (op.program === "printenv" && operands(op).length === 0) || (op.program === "set" && args.length === 0) || (op.program === "export" && args.includes("-p")) || (op.program === "declare" && args.some((w) => /^-[a-z]*x/.test(w)) && operands(op).length === 0))
    return { kind: "environment", subject: "the environment" };
  if (op.program === "printenv") {
    const secret = operands(op).find((w) => secretVariableIn(`$${w}`) === w);
    return secret ? { kind: "variable", subject: `$${secret}` } : undefined;
  }
  if (op.program === "echo" || op.program === "printf") {
    for (const w of args) {
      const v = secretVariableIn(w);
      if (v) return { kind: "variable", subject: `$${v}` };
    }
    return undefined;
  }
  if (!PRINTS_FILES.has(op.program)) return undefined;
  let files = operands(op);
  if (PATTERN_FIRST.has(op.program) && !op.argv.some((w) => w === "-e" || w === "-f" || w.startsWith("--regexp"))) files = files.slice(1);
  const secret = files.find(isSecretPath);
  if (!secret) return undefined;
  if (op.argv.slice(1).some((w) => QUIET.test(w)) && PATTERN_FIRST.has(op.program)) return undefined;
  return { kind: ENVIRON.test(secret) ? "environment" : "file", subject: secret };
}

/** Every emission of a line; deduplicated by rule and subject. */
export function findEmissions(ops: Operation[]): Emission[] {
  const found = new Map<string, Emission>();
  const add = (rule: string, program: string, subject: string) => found.set(`${rule}\0${subject}`, { rule, program, subject });
  // A program can appear as several operations (one per effect): read each command once.
  const seen = new Set<string>();
  const commands = ops.filter((o) => {
    const key = `${o.program}\0${o.pipe?.id ?? ""}\0${o.pipe?.at ?? ""}\0${o.text}`;
    if (o.kind === "unparsed" || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  for (const op of commands) {
    const isSecretPath = secretIn(op);
    if (NETWORK.has(op.program)) {
      for (const f of [...sentFiles(op), ...copiedOut(op)]) if (isSecretPath(f)) add("upload-secret-file", op.program, f);
      if (op.stdinFile && isSecretPath(op.stdinFile) && readsStdin(op)) add(ENVIRON.test(op.stdinFile) ? "environment-out" : "upload-secret-file", op.program, op.stdinFile);
      for (const w of bodyWords(op)) {
        const v = secretVariableIn(w);
        if (v) add("secret-variable-out", op.program, `$${v}`);
      }
      continue;
    }
    const source = secretSource(op);
    if (!source) continue;
    // Piped into a network program that reads its stdin, or substituted into one's arguments (`curl -d "$(cat .env)"`).
    const sink =
      (op.pipe ? commands.find((o) => o.pipe?.id === op.pipe!.id && o.pipe.at > op.pipe!.at && NETWORK.has(o.program) && readsStdin(o)) : undefined) ??
      (op.nesting === "substitution" ? commands.find((o) => NETWORK.has(o.program) && o.argv.some((w) => w.includes(op.text))) : undefined);
    if (sink) {
      add(source.kind === "environment" ? "environment-out" : "pipe-secret-out", sink.program, source.subject);
      continue;
    }
    // Output captured by `$(…)` reaches the transcript only through a command that prints it (`echo "$(cat .env)"`).
    const captured = op.nesting === "substitution" && !commands.some((o) => (o.program === "echo" || o.program === "printf") && o.argv.some((w) => w.includes(op.text)));
    if (!captured && reachesTranscript(op, commands, source.kind === "environment")) add(source.kind === "environment" ? "stdout-environment" : source.kind === "variable" ? "stdout-secret-variable" : "stdout-secret-file", op.program, source.subject);
  }
  return [...found.values()];
}

/** Arguments a network program puts into what it sends (body, form, upload); headers and --user are how it authenticates. */
function bodyWords(op: Operation): string[] {
  const out: string[] = [];
  const a = op.argv;
  for (let i = 1; i < a.length; i++) {
    const w = a[i]!;
    if (/^(?:-d|--data|--data-ascii|--data-binary|--data-raw|--data-urlencode|--json|-F|--form|--post-data)$/.test(w)) out.push(a[i + 1] ?? "");
    else if (/^(?:--data[\w-]*|--json|--form|--post-data)=/.test(w) || /^-[dF]./.test(w)) out.push(w);
    else if ((op.program === "http" || op.program === "https" || op.program === "xh") && /^[\w.-]+(?:=|:=)/.test(w)) out.push(w);
  }
  return out;
}

/** Words that name what a filter of the environment would let through as secret (`env | grep -i token`). */
const SECRETISH = /key|token|secret|pass|auth|cred|private|session|cookie|cert/i;

/** The output of `op` (a stage of its pipeline) ends on the terminal, i.e. in the agent's transcript. */
function reachesTranscript(op: Operation, commands: Operation[], environment: boolean): boolean {
  if (op.stdoutFile) return false;
  if (!op.pipe || op.pipe.at === op.pipe.of - 1) return true;
  const rest = commands.filter((o) => o.pipe?.id === op.pipe!.id && o.pipe.at > op.pipe!.at);
  // `env | grep NODE`: only the lines the pattern names come out; a pattern for secrets (or -v) lets them out.
  const next = rest.find((o) => o.pipe!.at === op.pipe!.at + 1);
  if (environment && next && (next.program === "grep" || next.program === "rg")) {
    const pattern = next.argv.slice(1).find((w) => !w.startsWith("-"));
    if (pattern && !SECRETISH.test(pattern) && !next.argv.some((w) => /^-[a-zA-Z]*v/.test(w) || w === "--invert-match")) return false;
  }
  const last = rest.find((o) => o.pipe!.at === op.pipe!.of - 1);
  if (!last) return true;
  if (last.stdoutFile || REVEALS_NOTHING.has(last.program)) return false;
  return !rest.some((o) => PATTERN_FIRST.has(o.program) && o.argv.slice(1).some((w) => QUIET.test(w)));
}
