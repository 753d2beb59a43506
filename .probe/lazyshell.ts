import { Hono } from "hono";
const app = new Hono();
app.get("/", (c) => c.json({ a: 1 }));
await app.request("/");
if (Deno.env.get("NEVER")) {
  const { createExperimentApp } = await import("../shared/contract/app.ts");
  createExperimentApp({ name: "s", description: "d", usage: "GET /" });
}
Deno.exit(0);
