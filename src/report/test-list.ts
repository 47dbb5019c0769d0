import { splitGoSelector } from "../act/runners/go.ts";

interface Listed {
  file: string;
  framework: string;
  selector: string;
}

/**
 * One line per thing the project's runner takes as an argument, for `guard check --list | xargs …`:
 * pytest node ids, JavaScript test files, Go packages (`./pkg`). Deduplicated, in order.
 */
export function runnableList(tests: Listed[]): string[] {
  const out = new Set<string>();
  for (const t of tests) {
    if (t.framework === "pytest") out.add(t.selector || t.file);
    else if (t.framework === "go" || t.file.endsWith("_test.go")) {
      const dir = t.selector.includes(":") ? splitGoSelector(t.selector).dir : t.file.includes("/") ? t.file.slice(0, t.file.lastIndexOf("/")) : ".";
      out.add(dir === "." ? "." : `./${dir}`);
    } else out.add(t.file);
  }
  return [...out];
}
