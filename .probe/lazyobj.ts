import { Hono } from "hono";
const app = new Hono();
app.get("/", (c) => c.json({ a: 1 }));
await app.request("/");
if (Deno.env.get("NEVER")) {
  const { createApp } = await import("../functions/object-storage/app.ts");
  const { bindingsFromEnv } = await import("../functions/object-storage/config.ts");
  console.log(createApp, bindingsFromEnv);
}
Deno.exit(0);
