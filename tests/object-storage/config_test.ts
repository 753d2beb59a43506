import assert from "node:assert/strict";
import { resolve } from "node:path";
import {
  bindingsFromEnv,
  DEFAULT_MAX_OBJECT_BYTES,
  signingFromEnv,
} from "../../functions/object-storage/config.ts";
import { FsBucket } from "../../shared/bindings/bucket/fs.ts";
import { LazyS3Bucket } from "../../shared/bindings/bucket/lazy_s3.ts";
import { ConfigError, Env } from "../../shared/contract/config.ts";

Deno.test("defaults: folders private and public, 100 MiB, no public URL", async () => {
  const b = await bindingsFromEnv(new Env({}));
  assert.ok(b.BUCKET instanceof FsBucket && b.PUBLIC_BUCKET instanceof FsBucket);
  assert.equal(b.BUCKET.root, resolve(".data/buckets/private"));
  assert.equal(b.PUBLIC_BUCKET.root, resolve(".data/buckets/public"));
  assert.equal(b.maxObjectBytes, DEFAULT_MAX_OBJECT_BYTES);
  assert.equal(b.maxObjectBytes, 100 * 1024 * 1024);
  assert.equal(b.PUBLIC_BUCKET_URL, undefined);
});

Deno.test("MAX_OBJECT_BYTES and PUBLIC_BUCKET_URL are read; S3 variables select S3", async () => {
  const b = await bindingsFromEnv(
    new Env({
      S3_ENDPOINT: "http://127.0.0.1:9",
      BUCKET: "priv",
      PUBLIC_BUCKET: "pub",
      MAX_OBJECT_BYTES: "1024",
      PUBLIC_BUCKET_URL: "https://cdn.example/assets/",
    }),
  );
  // S3 buckets whose adapter (and the AWS SDK) loads on first use, not at start-up.
  assert.ok(b.BUCKET instanceof LazyS3Bucket && b.PUBLIC_BUCKET instanceof LazyS3Bucket);
  assert.equal(b.maxObjectBytes, 1024);
  assert.equal(b.PUBLIC_BUCKET_URL, "https://cdn.example/assets", "trailing / dropped");
});

Deno.test("malformed values are one-line ConfigErrors naming the variable", async () => {
  const cases: [Record<string, string>, string][] = [
    [{ MAX_OBJECT_BYTES: "lots" }, "MAX_OBJECT_BYTES"],
    [{ MAX_OBJECT_BYTES: "0" }, "MAX_OBJECT_BYTES"],
    [{ MAX_OBJECT_BYTES: String(6 * 1024 ** 4) }, "MAX_OBJECT_BYTES"],
    [{ PUBLIC_BUCKET_URL: "localhost:8008/public" }, "PUBLIC_BUCKET_URL"],
    [{ BUCKET: "public" }, "PUBLIC_BUCKET"], // the private bucket would be published
  ];
  for (const [vars, name] of cases) {
    await assert.rejects(() => bindingsFromEnv(new Env(vars)), (err: Error) => {
      assert.ok(err instanceof ConfigError, JSON.stringify(vars));
      assert.ok(err.message.startsWith(`${name} `), err.message);
      return true;
    });
  }
});

Deno.test("signing: both secrets turn it on, one alone leaves it off, short ones stop start-up", async () => {
  const key = "k".repeat(32);
  const token = "t".repeat(16);
  assert.equal(await signingFromEnv(new Env({})), undefined);
  assert.equal(await signingFromEnv(new Env({ OBJECT_SIGNING_KEY: key })), undefined);
  assert.equal(await signingFromEnv(new Env({ OBJECT_ADMIN_TOKEN: token })), undefined);
  const on = await signingFromEnv(new Env({ OBJECT_SIGNING_KEY: key, OBJECT_ADMIN_TOKEN: token }));
  assert.equal(on?.key.algorithm.name, "HMAC");
  await assert.rejects(
    signingFromEnv(new Env({ OBJECT_SIGNING_KEY: "short", OBJECT_ADMIN_TOKEN: token })),
    (e: Error) => e instanceof ConfigError && e.message.includes("OBJECT_SIGNING_KEY"),
  );
  await assert.rejects(
    signingFromEnv(new Env({ OBJECT_SIGNING_KEY: key, OBJECT_ADMIN_TOKEN: "short" })),
    (e: Error) => e instanceof ConfigError && e.message.includes("OBJECT_ADMIN_TOKEN"),
  );
});

Deno.test("a deployment without S3 or DATA_DIR answers STORAGE_ERROR naming the variables and writes nothing", async () => {
  const { createApp } = await import("../../functions/object-storage/app.ts");
  const dir = await Deno.makeTempDir();
  const cwd = Deno.cwd();
  try {
    Deno.chdir(dir); // where the folder default would write
    const b = await bindingsFromEnv(new Env({}, true));
    const app = createApp(b, { log: () => {} });
    const put = await app.request("/object?key=a.txt", { method: "PUT", body: "hello" });
    assert.equal(put.status, 500);
    const body = await put.json();
    assert.equal(body.code, "STORAGE_ERROR");
    assert.match(body.error, /set S3_ENDPOINT, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/);
    const get = await app.request("/object?key=a.txt");
    assert.equal(get.status, 500);
    assert.deepEqual([...Deno.readDirSync(dir)], [], "nothing written");
    // An explicit folder is the user's choice: it works in a deployment too.
    const chosen = await bindingsFromEnv(new Env({ DATA_DIR: `${dir}/data` }, true));
    assert.ok(chosen.BUCKET instanceof FsBucket);
    const stored = await createApp(chosen, { log: () => {} })
      .request("/object?key=a.txt", { method: "PUT", body: "hello" });
    assert.equal(stored.status, 200);
  } finally {
    Deno.chdir(cwd);
    await Deno.remove(dir, { recursive: true });
  }
});
