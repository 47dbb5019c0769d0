import { expect, test } from "bun:test";
import { RECORD_LOADERS, loadHost } from "../../src/hosts/load-host.ts";
import { HOSTS } from "../../src/hosts/registry.ts";

// A hook call loads only its host's record; the loaders must name exactly the hosts the registry knows.
test("every host in the registry loads alone, as the same record, and nothing else loads", async () => {
  expect(Object.keys(RECORD_LOADERS).sort()).toEqual(HOSTS.map((h) => h.id).sort());
  for (const h of HOSTS) expect(await loadHost(h.id)).toBe(h);
  for (const id of ["nohost", "toString", "__proto__", ""]) expect(await loadHost(id)).toBeUndefined();
});
