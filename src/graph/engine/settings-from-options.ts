import { GuardError } from "../../kernel/errors.ts";
import { EXIT } from "../../kernel/exit-codes.ts";
import { BACKENDS, type Backend } from "../../state/config.ts";
import { findRepoRoot } from "../../repo/git.ts";
import { engineSettings, type EngineSettings } from "./index.ts";

/** Engine settings for a command: the repository's config (when run inside one) plus --backend/--url/--tls. */
export function settingsFromOptions(cwd: string, options: Record<string, unknown>): { settings: EngineSettings; root?: string } {
  const overrides: Partial<EngineSettings> = {};
  if (options.backend !== undefined) {
    const b = String(options.backend);
    if (!(BACKENDS as readonly string[]).includes(b))
      throw new GuardError(`unknown backend: ${b}`, undefined, `use one of ${BACKENDS.join(", ")}`, EXIT.USAGE, "E_USAGE");
    overrides.backend = b as Backend;
  }
  if (options.url !== undefined) {
    overrides.url = String(options.url);
    if (options.backend === undefined) overrides.backend = "server";
  }
  if (options.tls) overrides.tls = true;
  const root = findRepoRoot(cwd);
  return { settings: engineSettings(root, overrides), root };
}
