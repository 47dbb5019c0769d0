import { randomBytes } from "node:crypto";
import { closeSync, existsSync, linkSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { GuardError } from "../../kernel/errors.ts";
import { guardHome } from "../../state/paths.ts";

export const KEY_BYTES = 32;
export const keyPath = () => join(guardHome(), "approval.key");

/**
 * The approval key: 32 random bytes in GUARD_HOME/approval.key, mode 0600. Created atomically: written
 * to a private temp file, then hard-linked into place, so two guard processes never see half a key and
 * the first one to link wins.
 */
export function approvalKey(create = true): Buffer | undefined {
  const path = keyPath();
  if (!existsSync(path)) {
    if (!create) return undefined;
    mkdirSync(guardHome(), { recursive: true, mode: 0o700 });
    const tmp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    const fd = openSync(tmp, "wx", 0o600);
    try {
      writeSync(fd, randomBytes(KEY_BYTES));
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(tmp, path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    } finally {
      rmSync(tmp, { force: true });
    }
  }
  const key = readFileSync(path);
  if (key.length !== KEY_BYTES)
    throw new GuardError(`${path} is not a guard approval key`, `expected ${KEY_BYTES} bytes, found ${key.length}`, "delete it; the next `guard post` creates a new one (existing approvals then need a new `guard post`)", 1, "E_APPROVAL_KEY");
  return key;
}
