import { readHead } from "./read-head.ts";

/**
 * A file named like a secret file that, as it stands, holds none: a `.pem` with only certificates, or an
 * `.npmrc` / `.pypirc` / docker `config.json` with no auth entry. A file that is missing or unreadable is
 * not known to be harmless.
 */
export function knownHarmless(absPath: string): boolean {
  if (/\.pem$/.test(absPath)) {
    const text = readHead(absPath, 65536);
    return text.length > 0 && !text.includes("PRIVATE KEY");
  }
  if (/(?:^|\/)(?:\.npmrc|\.pypirc|\.docker\/config\.json)$/.test(absPath)) {
    const text = readHead(absPath, 65536);
    return text.length > 0 && !/_auth|token|password|secret|"auth"|credsStore|credHelpers/i.test(text);
  }
  return false;
}
