/**
 * On a command line, a secret file named to a program that never prints or sends its content (`ls .env`,
 * `touch .env`, `test -f .env`, `echo "add it to .env"`, `cp .env.example .env`, `echo X >> .env`) is a
 * mention, not a reference: the process-argv channel does not ask about it.
 */
const NEVER_READ = new Set(["ls", "touch", "test", "[", "[[", "stat", "echo", "printf", "mkdir", "file", "which", "chmod", "chown", "rm", "du", "realpath", "readlink", "basename", "dirname", "wc", "sha256sum", "sha1sum", "md5sum", "cksum", "shasum"]);
/** Programs whose last operand is a destination they write, never read. */
const DESTINATION_LAST = new Set(["cp", "mv", "install", "ln"]);
const GIT_READ_FREE = new Set(["check-ignore", "ls-files", "status", "rm", "mv"]);

export function isHarmlessMention(text: string, start: number, end: number): boolean {
  const before = text.slice(0, start);
  // A redirect target is written, not read (`>> .env`); an input redirect (`< .env`) feeds the command.
  if (/(?:^|[^<>&0-9])[0-9]*>{1,2}\|?[ \t]*["']?$/.test(before)) return true;
  const segStart = Math.max(...[";", "|", "&", "\n", "(", "`"].map((c) => before.lastIndexOf(c))) + 1;
  const segEndRel = text.slice(end).search(/[;|&\n)`]/);
  const segment = text.slice(segStart, segEndRel < 0 ? text.length : end + segEndRel);
  const words = segment.trim().split(/\s+/).filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
  while (words[0] === "sudo" || words[0] === "command" || words[0] === "builtin") words.shift();
  const program = (words[0] ?? "").split("/").pop() ?? "";
  if (NEVER_READ.has(program)) return true;
  if (program === "git") return GIT_READ_FREE.has(words.find((w, i) => i > 0 && !w.startsWith("-")) ?? "");
  if (DESTINATION_LAST.has(program)) {
    const last = (words[words.length - 1] ?? "").replace(/^["']|["']$/g, "");
    return last === text.slice(start, end);
  }
  return false;
}
