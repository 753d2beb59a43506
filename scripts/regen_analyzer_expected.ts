/**
 * Rewrites tests/dependency-analyzer/expected/*.json from the current `/analyze` output (run
 * `deno run -A scripts/regen_analyzer_expected.ts`, then review the diff before committing).
 */
import { createApp } from "../functions/dependency-analyzer/app.ts";
import { startFixtureServer } from "../tests/support/fixture_server.ts";
import { openPolicy } from "../tests/support/policy.ts";
const SERVE: Record<string, string> = { "latin1.html": "?type=text/html;charset=iso-8859-1" };
const server = startFixtureServer();
const app = createApp({ fetchPolicy: openPolicy() }, { log: () => {} });
for (const e of Deno.readDirSync("tests/fixtures/pages")) {
  if (!/\.(?:html?|json)$/.test(e.name)) continue;
  const res = await app.request(
    `/analyze?url=${encodeURIComponent(server.url(`/pages/${e.name}${SERVE[e.name] ?? ""}`))}`,
  );
  const json = JSON.parse((await res.text()).replaceAll(server.origin, "{origin}"));
  json.fetchedAt = "{fetchedAt}";
  Deno.writeTextFileSync(
    `tests/dependency-analyzer/expected/${e.name}.json`,
    JSON.stringify(json, null, 2) + "\n",
  );
}
await server.close();
