import { createApp } from "../functions/dependency-analyzer/app.ts";
import { bindingsFromEnv } from "../functions/dependency-analyzer/config.ts";
import { processEnv } from "../shared/contract/config.ts";
const app = createApp(await bindingsFromEnv(processEnv()) as never);
const res = await app.fetch(new Request("http://x/"));
if (res.status !== 200) throw new Error(String(res.status));
Deno.exit(0);
