Deno.exit(0);
