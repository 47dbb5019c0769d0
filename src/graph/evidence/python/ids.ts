/** A node id without its parameters: `t.py::test_p[1-2]` runs test `t.py::test_p`. */
export function pytestSelector(nodeid: string): string {
  // Parameters may themselves contain "::", so cut at the first "[" after the file part.
  const afterFile = nodeid.indexOf("::");
  const bracket = afterFile >= 0 ? nodeid.indexOf("[", afterFile) : -1;
  return bracket >= 0 ? nodeid.slice(0, bracket) : nodeid;
}

/** pytest node id → the graph's Test id, `file::Class.test` (src/graph/schema.ts), parameters dropped. */
export function pytestTestId(nodeid: string): string {
  const [file, ...rest] = pytestSelector(nodeid).split("::");
  return `${file}::${rest.join(".")}`;
}

/** The file part of a node id. */
export const pytestFile = (nodeid: string): string => nodeid.split("::")[0] ?? nodeid;

/** The test's own name: the last component without parameters. */
export const pytestName = (nodeid: string): string => pytestSelector(nodeid).split("::").pop() ?? nodeid;

/** Prefix a node id relative to pytest's rootdir with that rootdir's path inside the repository. */
export const underRoot = (prefix: string, path: string): string => (prefix === "" || prefix === "." ? path : `${prefix}/${path}`);
