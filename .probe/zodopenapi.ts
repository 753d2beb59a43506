import { OpenAPIHono } from "@hono/zod-openapi";
new OpenAPIHono();
Deno.exit(0);
