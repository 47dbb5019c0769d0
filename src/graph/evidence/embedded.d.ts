// Helper scripts guard injects into test runners, imported as text (`with { type: "text" }`) so the
// compiled binary carries them.
declare module "*.py" {
  const text: string;
  export default text;
}
declare module "*.mjs" {
  const text: string;
  export default text;
}
