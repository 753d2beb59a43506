import { Hono } from "hono";
const app = new Hono();
app.get("/", (c) => c.json({ a: 1 }));
await app.request("/");
Deno.exit(0);
