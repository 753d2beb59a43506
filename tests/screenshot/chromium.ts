/**
 * Chromium for the screenshot tests: where it is, and `chromiumTest`, which runs a test when
 * Chromium is there, fails it in CI (`CI=true`) when it is not, and otherwise skips it loudly.
 */
import {
  type BrowserBinding,
  createBrowser,
  findChrome,
} from "../../shared/bindings/browser/mod.ts";

/** `CHROME_PATH`, else the auto-detected Chromium, else null. */
export const CHROME_PATH: string | null = Deno.env.get("CHROME_PATH") || findChrome();

/** True under a CI runner, where a missing Chromium is a failure, not a skip. */
export const IN_CI = ["true", "1"].includes((Deno.env.get("CI") ?? "").toLowerCase());

/** Options passed through to `Deno.test`. */
export type ChromiumTestOptions = Pick<Deno.TestDefinition, "sanitizeOps" | "sanitizeResources">;

/** Registers a test that needs a real Chromium. */
export function chromiumTest(
  name: string,
  fn: (t: Deno.TestContext, chromePath: string) => Promise<void>,
  options: ChromiumTestOptions = {},
): void {
  const chromePath = CHROME_PATH;
  if (chromePath) {
    Deno.test({ name, fn: (t) => fn(t, chromePath), ...options });
    return;
  }
  if (IN_CI) {
    Deno.test(name, () => {
      throw new Error("Chromium not found and CI=true: install chromium or set CHROME_PATH");
    });
    return;
  }
  console.warn(`SKIPPING screenshot test "${name}": no Chromium found (set CHROME_PATH)`);
  Deno.test({ name, ignore: true, fn: () => {} });
}

/** A launched-mode binding on the test's Chromium. */
export function testBrowser(chromePath: string): BrowserBinding {
  return createBrowser({ executablePath: chromePath });
}

/** Browser contexts other than the default one, counted by Chromium itself over CDP. */
export async function openContexts(binding: BrowserBinding): Promise<number> {
  const browser = await binding.get();
  const session = await browser.target().createCDPSession();
  try {
    const { browserContextIds } = await session.send("Target.getBrowserContexts");
    return browserContextIds.length;
  } finally {
    await session.detach();
  }
}

export { type RemoteChromium, startRemoteChromium } from "../support/remote_chromium.ts";
