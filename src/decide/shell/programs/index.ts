import type { Interpreter } from "./args.ts";
import { awk, perl, sed } from "./editors.ts";
import { docker, dockerCompose, dropdb, helm, kubectl, redisCli, terraform } from "./external.ts";
import { cp, create, curl, dd, disk, install, ln, mv, remove, rsync, shred, tee, truncate, wget } from "./files.ts";
import { find } from "./find.ts";
import { tar, unzip } from "./archive.ts";
import { chmodLike, setfacl } from "./perms.ts";
import { git } from "./git.ts";

/** Programs whose effect on files guard models, by name (after wrappers and the directory part). */
export const INTERPRETERS: Record<string, Interpreter> = {
  rm: remove,
  rmdir: remove,
  unlink: remove,
  shred,
  truncate,
  mv,
  cp,
  ln,
  tee,
  dd,
  curl,
  wget,
  install,
  sed,
  perl,
  awk,
  gawk: awk,
  touch: create,
  mkdir: create,
  find,
  tar,
  unzip,
  chmod: chmodLike,
  chown: chmodLike,
  chgrp: chmodLike,
  setfacl,
  rsync,
  git,
  docker,
  podman: docker,
  "docker-compose": dockerCompose,
  terraform,
  tofu: terraform,
  kubectl,
  helm,
  dropdb,
  "redis-cli": redisCli,
  mkfs: disk,
  mke2fs: disk,
  mkswap: disk,
  wipefs: disk,
  fdisk: disk,
  sfdisk: disk,
  sgdisk: disk,
  gdisk: disk,
  parted: disk,
  cryptsetup: disk,
  blkdiscard: disk,
};

export function interpreterFor(program: string): Interpreter | undefined {
  if (program.startsWith("mkfs.")) return disk;
  return INTERPRETERS[program];
}

/**
 * Programs that leave the file system as it was (or only print). A command not listed and not modeled
 * above may change anything, so a compensation planned before the line runs may not match what a later
 * destructive command in the same line meets.
 */
export const NO_FILE_EFFECT = new Set([
  "cd", "pushd", "popd", "echo", "printf", "ls", "cat", "pwd", "true", "false", "test", "[", "[[", "grep", "egrep", "fgrep", "rg", "head",
  "tail", "wc", "which", "type", "command", "sleep", "date", "stat", "file", "du", "df", "sort", "uniq", "diff", "cmp", "realpath",
  "readlink", "basename", "dirname", "sha256sum", "sha1sum", "md5sum", "jq", "less", "more", "tree", "whoami", "id", "uname", "hostname",
  "env", "printenv", "export", "set", "unset", "local", "declare", "readonly", "exit", "return", "shift", "read", "wait", "jobs", "history",
  "cut", "tr", "xxd", "od", "hexdump", "nproc", "free", "ps", "top", "uptime", "seq", "yes", "tput", "clear", ":",
]);
