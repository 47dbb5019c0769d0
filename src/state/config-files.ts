import { join } from "node:path";

/** Where config can live, later ones overriding earlier ones (apart from config.ts so the idle path needs no validator). */
export function configFiles(root: string): { label: string; path: string }[] {
  return [
    { label: "guard.json", path: join(root, "guard.json") },
    { label: ".guard/config.json", path: join(root, ".guard", "config.json") },
  ];
}
