/** What resolution may know about the repository besides the extracts: which paths exist, and small config files. */
export interface RepoView {
  /** Every tracked path (all files, not only source). */
  paths: ReadonlySet<string>;
  /** The content of a small tracked file (go.mod, tsconfig.json, package.json), or undefined. */
  read(path: string): string | undefined;
}

export const dirOf = (p: string): string => {
  const i = p.lastIndexOf("/");
  return i === -1 ? "" : p.slice(0, i);
};

export const joinPath = (dir: string, rel: string): string | undefined => {
  const out: string[] = dir === "" ? [] : dir.split("/");
  for (const part of rel.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(part);
  }
  return out.join("/");
};
