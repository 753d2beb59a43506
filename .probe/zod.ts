import { z } from "zod";
z.object({ a: z.string() }).parse({ a: "x" });
Deno.exit(0);
