import type { Arg, Interpreted, Interpreter } from "./args.ts";

/**
 * Commands that destroy data outside the workspace's files, where guard's trash and snapshots cannot
 * reach: container volumes, infrastructure, cluster objects, databases. Each names what it destroys as a
 * target without a path (`kind: "irreversible"`); the rule table decides what to do (ASK).
 */

const words = (args: Arg[]) => args.map((a) => a.value);
const gone = (what: string): Interpreted => ({ effects: [{ kind: "irreversible", targets: [{ raw: what }] }], unknownEffect: true });
const nothing: Interpreted = { effects: [], unknownEffect: true };
/** The first word that is not an option: the subcommand (`docker --context x volume rm` → volume). */
const positional = (w: string[]) => w.filter((x) => !x.startsWith("-"));

/** docker: volume rm/prune, system prune --volumes, compose down -v; `docker-compose` alike. */
export const docker: Interpreter = (args) => {
  const w = words(args);
  const [sub, action] = positional(w);
  if (sub === "volume" && (action === "rm" || action === "remove" || action === "prune")) return gone("docker volumes");
  if (sub === "system" && action === "prune" && w.includes("--volumes")) return gone("docker volumes");
  if (sub === "compose") return compose(w.slice(w.indexOf("compose") + 1));
  return nothing;
};

function compose(w: string[]): Interpreted {
  if (!positional(w).includes("down")) return nothing;
  return w.some((x) => x === "-v" || x === "--volumes" || /^-[a-zA-Z]*v[a-zA-Z]*$/.test(x)) ? gone("the compose project's volumes") : nothing;
}

export const dockerCompose: Interpreter = (args) => compose(words(args));

/** terraform / tofu: destroy, or apply -destroy. */
export const terraform: Interpreter = (args) => {
  const w = words(args);
  const sub = positional(w)[0];
  return sub === "destroy" || (sub === "apply" && w.includes("-destroy")) ? gone("the infrastructure in this Terraform state") : nothing;
};

/** kubectl delete, helm uninstall/delete. */
export const kubectl: Interpreter = (args) => (positional(words(args))[0] === "delete" ? gone("Kubernetes objects") : nothing);
export const helm: Interpreter = (args) => (["uninstall", "delete", "del", "un"].includes(positional(words(args))[0] ?? "") ? gone("a Helm release") : nothing);

/** dropdb, and redis-cli FLUSHALL/FLUSHDB. */
export const dropdb: Interpreter = () => gone("a PostgreSQL database");
export const redisCli: Interpreter = (args) => (words(args).some((x) => /^flush(all|db)$/i.test(x)) ? gone("a Redis database's keys") : nothing);
