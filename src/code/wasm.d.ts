// `import path from "x.wasm" with { type: "file" }` gives the file's path; `bun build --compile` embeds the
// file and the path then points into the binary's own file system.
declare module "*.wasm" {
  const path: string;
  export default path;
}
