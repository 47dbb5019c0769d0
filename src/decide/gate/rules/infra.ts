import type { GateRule } from "./types.ts";

const CONTAINER_FILES = ["Dockerfile", "Containerfile", ".dockerfile", ".yml", ".yaml", ".json", ".tf", ".sh"];

/** A Dockerfile that ends with no USER instruction runs as root; the line of its last FROM is reported. */
function noUserLine(text: string): number | undefined {
  const lines = text.split("\n");
  let lastFrom: number | undefined;
  let user = false;
  lines.forEach((l, i) => {
    if (/^\s*FROM\s/i.test(l)) {
      lastFrom = i + 1;
      user = false;
    } else if (/^\s*USER\s+(?!root\b|0\b)\S/i.test(l)) user = true;
  });
  return lastFrom !== undefined && !user ? lastFrom : undefined;
}

export const INFRA_RULES: GateRule[] = [
  {
    id: "RULE-PRIVILEGED-CONTAINER",
    pack: "infra",
    severity: "hard",
    title: "privileged container",
    files: CONTAINER_FILES,
    patterns: [/^\s*privileged\s*:\s*true\b/, /--privileged\b/, /\ballowPrivilegeEscalation\s*:\s*true\b/, /"Privileged"\s*:\s*true/, /\bprivileged\s*=\s*true\b/],
    fix: "drop privileged mode; grant only the capabilities the container needs (cap_add)",
    examples: {
      invalid: [
        { path: "docker-compose.yml", line: "    privileged: true" },
        { path: "scripts/run.sh", line: "docker run --privileged app" },
        { path: "k8s/pod.yaml", line: "        allowPrivilegeEscalation: true" },
      ],
      valid: [
        { path: "docker-compose.yml", line: "    privileged: false" },
        { path: "k8s/pod.yaml", line: "        allowPrivilegeEscalation: false" },
      ],
    },
  },
  {
    id: "RULE-LATEST-IMAGE",
    pack: "infra",
    severity: "warn",
    title: "container image pinned to :latest",
    files: CONTAINER_FILES,
    patterns: [/^\s*FROM\s+\S+:latest\b/i, /^\s*-?\s*image\s*:\s*["']?\S+:latest\b/, /\bdocker\s+(?:run|pull)\b.*\s\S+:latest\b/],
    fix: "pin a version tag or a digest so builds are reproducible",
    examples: {
      invalid: [
        { path: "Dockerfile", line: "FROM node:latest" },
        { path: "docker-compose.yml", line: "    image: postgres:latest" },
      ],
      valid: [
        { path: "Dockerfile", line: "FROM node:22.11-slim" },
        { path: "docker-compose.yml", line: "    image: postgres@sha256:0123abcd" },
      ],
    },
  },
  {
    id: "RULE-CONTAINER-ROOT",
    pack: "infra",
    severity: "warn",
    title: "container runs as root",
    files: CONTAINER_FILES,
    patterns: [/^\s*USER\s+(?:root|0)\s*$/i, /\brunAsUser\s*:\s*0\b/, /\brunAsNonRoot\s*:\s*false\b/, /^\s*user\s*:\s*["']?(?:root|0)["']?\s*$/],
    wholeFile: (text) => noUserLine(text),
    fix: "add a USER instruction with an unprivileged user (or runAsNonRoot: true)",
    examples: {
      invalid: [
        { path: "Dockerfile", line: "USER root" },
        { path: "k8s/pod.yaml", line: "        runAsUser: 0" },
      ],
      valid: [
        { path: "Dockerfile", line: "USER app" },
        { path: "k8s/pod.yaml", line: "        runAsNonRoot: true" },
      ],
    },
  },
];

export { noUserLine };
