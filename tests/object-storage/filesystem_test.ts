/** The object-storage suite against the filesystem default, plus what only the folder has. */
import { filesystemBackend } from "./backends.ts";
import { objectStorageSuite, signedLinkSuite } from "./suite.ts";

Deno.test("object-storage over the filesystem default", async (t) => {
  const backend = await filesystemBackend();
  try {
    await objectStorageSuite(t, backend);
    await signedLinkSuite(t, backend);
  } finally {
    await backend.close();
  }
});
