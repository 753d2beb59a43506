import { createExperimentApp } from "../shared/contract/app.ts";
const app = createExperimentApp({ name: "s", description: "d", usage: "GET /" });
await app.request("/");
Deno.exit(0);
