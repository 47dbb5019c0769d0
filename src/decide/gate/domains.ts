import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

/**
 * How guard tells what kind of repository this is: each record lists the evidence (files, folders,
 * package.json dependencies) that makes a domain. A repository can be several; frontend + backend is
 * reported as fullstack. The domain picks the rule packs `post` applies beyond the ones every repo gets.
 */
export interface DomainRecord {
  id: "frontend" | "backend" | "infra" | "mobile";
  files: string[];
  folders: string[];
  dependencies: string[];
  rulePacks: string[];
}

export const DOMAINS: readonly DomainRecord[] = [
  {
    id: "frontend",
    files: ["vite.config.ts", "vite.config.js", "next.config.js", "next.config.mjs", "svelte.config.js", "angular.json", "nuxt.config.ts", "index.html", "tailwind.config.js", "tailwind.config.ts"],
    folders: ["public", "components", "src/components", "pages", "app/components"],
    dependencies: ["react", "vue", "svelte", "@angular/core", "next", "nuxt", "solid-js", "preact", "lit"],
    rulePacks: ["frontend"],
  },
  {
    id: "backend",
    files: ["go.mod", "pyproject.toml", "requirements.txt", "manage.py", "pom.xml", "build.gradle", "Cargo.toml", "Gemfile", "composer.json"],
    folders: ["api", "server", "src/server", "migrations", "routes"],
    dependencies: ["express", "fastify", "koa", "@nestjs/core", "hono", "pg", "mysql2", "prisma", "mongoose", "sequelize", "knex"],
    rulePacks: ["backend"],
  },
  {
    id: "infra",
    files: ["Dockerfile", "docker-compose.yml", "docker-compose.yaml", "compose.yaml", "main.tf", "Chart.yaml", "kustomization.yaml", "Pulumi.yaml"],
    folders: ["terraform", "k8s", "helm", "deploy", "infra", ".github/workflows"],
    dependencies: ["aws-cdk-lib", "cdktf", "@pulumi/pulumi"],
    rulePacks: ["infra"],
  },
  {
    id: "mobile",
    files: ["app.json", "pubspec.yaml", "Podfile", "AndroidManifest.xml", "app/src/main/AndroidManifest.xml"],
    folders: ["android", "ios"],
    dependencies: ["react-native", "expo", "@capacitor/core", "@ionic/react"],
    rulePacks: ["frontend"],
  },
];

/** Packs every repository gets: secrets and the generic security rules. */
export const BASE_PACKS = ["secrets", "security"];

function packageDeps(root: string): Set<string> {
  try {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    return new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})]);
  } catch {
    return new Set();
  }
}

export interface DomainResult {
  domains: string[];
  rulePacks: string[];
  evidence: Record<string, string[]>;
}

export function detectDomains(root: string): DomainResult {
  const deps = packageDeps(root);
  const evidence: Record<string, string[]> = {};
  for (const d of DOMAINS) {
    const hits = [
      ...d.files.filter((f) => existsSync(join(root, f))),
      ...d.folders.filter((f) => isDir(join(root, f))).map((f) => `${f}/`),
      ...d.dependencies.filter((x) => deps.has(x)).map((x) => `dependency ${x}`),
    ];
    if (hits.length > 0) evidence[d.id] = hits;
  }
  const found = DOMAINS.filter((d) => evidence[d.id]).map((d) => d.id as string);
  const domains = found.includes("frontend") && found.includes("backend") ? ["fullstack", ...found.filter((d) => d !== "frontend" && d !== "backend")] : found;
  const packs = new Set(BASE_PACKS);
  for (const d of DOMAINS) if (evidence[d.id]) for (const p of d.rulePacks) packs.add(p);
  // A repository with nothing recognisable gets every pack: unknown means more checks, not fewer.
  if (found.length === 0) for (const d of DOMAINS) for (const p of d.rulePacks) packs.add(p);
  return { domains: domains.length > 0 ? domains : ["unknown"], rulePacks: [...packs].sort(), evidence };
}

function isDir(p: string): boolean {
  try {
    readdirSync(p);
    return true;
  } catch {
    return false;
  }
}
