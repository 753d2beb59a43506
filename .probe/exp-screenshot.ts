import { createApp } from "../functions/screenshot/app.ts";
import { bindingsFromEnv } from "../functions/screenshot/config.ts";
import { processEnv } from "../shared/contract/config.ts";
const app = createApp(await bindingsFromEnv(processEnv()) as never);
const res = await app.fetch(new Request("http://x/"));
if (res.status !== 200) throw new Error(String(res.status));
Deno.exit(0);
