import type { GateRule } from "./types.ts";

export const FRONTEND_RULES: GateRule[] = [
  {
    id: "RULE-IMG-NO-ALT",
    pack: "frontend",
    severity: "warn",
    title: "<img> without alt text",
    files: [".html", ".htm", ".jsx", ".tsx", ".vue", ".svelte", ".astro", ".erb", ".jinja", ".j2"],
    patterns: [/<img\b(?![^>]*\balt\s*=)[^>]*>/i],
    fix: 'describe the image in alt="…" (alt="" for a purely decorative one)',
    examples: {
      invalid: [
        { path: "src/Card.tsx", line: `<img src={user.avatar} className="avatar" />` },
        { path: "index.html", line: `<img src="logo.png">` },
      ],
      valid: [
        { path: "src/Card.tsx", line: `<img src={user.avatar} alt={user.name} />` },
        { path: "index.html", line: `<img src="divider.png" alt="">` },
      ],
    },
  },
  {
    id: "RULE-OUTLINE-NONE",
    pack: "frontend",
    severity: "warn",
    title: "focus outline removed",
    files: [".css", ".scss", ".sass", ".less", ".styl", ".vue", ".svelte", ".jsx", ".tsx", ".html"],
    patterns: [/\boutline\s*:\s*(?:none|0)\b/i, /\boutline\s*:\s*["'](?:none|0)["']/i],
    fix: "keep a visible focus indicator (style :focus-visible instead of removing the outline)",
    examples: {
      invalid: [
        { path: "src/app.css", line: "button:focus { outline: none; }" },
        { path: "src/Button.tsx", line: `const style = { outline: "none" };` },
      ],
      valid: [
        { path: "src/app.css", line: "button:focus-visible { outline: 2px solid #1a73e8; }" },
      ],
    },
  },
];
