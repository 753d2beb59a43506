/**
 * A child process for the browser binding's lifetime test: it launches Chromium through the
 * binding, prints the browser's PID, and waits to be killed.
 */
import { createBrowser } from "../../shared/bindings/browser/mod.ts";

const binding = createBrowser({ executablePath: Deno.args[0] });
const browser = await binding.get();
console.log(browser.process()?.pid);
await new Promise(() => {});
