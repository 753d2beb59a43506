import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { FsBucket } from "../../../../shared/bindings/bucket/fs.ts";
import { S3Bucket } from "../../../../shared/bindings/bucket/s3.ts";
import {
  bucketsFromEnv,
  DEFAULT_MAX_OBJECT_BYTES,
  s3SettingsFromEnv,
} from "../../../../shared/bindings/bucket/env.ts";
import { ConfigError, Env } from "../../../../shared/contract/config.ts";

Deno.test("no S3 variables: two folders under DATA_DIR/buckets", async () => {
  const b = await bucketsFromEnv(new Env({}));
  assert.ok(b.BUCKET instanceof FsBucket && b.PUBLIC_BUCKET instanceof FsBucket);
  assert.equal(b.BUCKET.root, resolve(".data/buckets/private"));
  assert.equal(b.PUBLIC_BUCKET.root, resolve(".data/buckets/public"));
  assert.equal(b.maxObjectBytes, DEFAULT_MAX_OBJECT_BYTES);
  assert.equal(b.maxObjectBytes, 100 * 1024 * 1024);
  assert.equal(b.PUBLIC_BUCKET_URL, undefined);

  const named = await bucketsFromEnv(
    new Env({
      DATA_DIR: "/tmp/x",
      BUCKET: "mine",
      PUBLIC_BUCKET: "shared.assets",
      MAX_OBJECT_BYTES: "1024",
      PUBLIC_BUCKET_URL: "http://localhost:8008/public/",
    }),
  );
  assert.equal((named.BUCKET as FsBucket).root, join("/tmp/x", "buckets", "mine"));
  assert.equal((named.PUBLIC_BUCKET as FsBucket).root, join("/tmp/x", "buckets", "shared.assets"));
  assert.equal(named.maxObjectBytes, 1024);
  assert.equal(named.PUBLIC_BUCKET_URL, "http://localhost:8008/public", "trailing / dropped");
});

Deno.test("S3_ENDPOINT or S3 keys select the S3 adapter", async () => {
  const b = await bucketsFromEnv(
    new Env({
      S3_ENDPOINT: "http://127.0.0.1:9000",
      S3_ACCESS_KEY_ID: "id",
      S3_SECRET_ACCESS_KEY: "secret",
      BUCKET: "priv",
      PUBLIC_BUCKET: "pub",
    }),
  );
  assert.ok(b.BUCKET instanceof S3Bucket && b.PUBLIC_BUCKET instanceof S3Bucket);
  assert.equal(b.BUCKET.kind, "s3");

  assert.deepEqual(s3SettingsFromEnv(new Env({ S3_ENDPOINT: "http://h:9000/" })), {
    endpoint: "http://h:9000",
    region: "us-east-1",
    credentials: undefined,
    forcePathStyle: true,
  });
  assert.deepEqual(
    s3SettingsFromEnv(
      new Env({
        S3_ACCESS_KEY_ID: "id",
        S3_SECRET_ACCESS_KEY: "secret",
        S3_REGION: "eu-west-3",
      }),
    ),
    {
      endpoint: undefined,
      region: "eu-west-3",
      credentials: { accessKeyId: "id", secretAccessKey: "secret" },
      forcePathStyle: false, // AWS itself: virtual-hosted style
    },
  );
  assert.equal(
    s3SettingsFromEnv(new Env({ S3_ENDPOINT: "https://x", S3_FORCE_PATH_STYLE: "false" }))
      ?.forcePathStyle,
    false,
  );
  assert.equal(s3SettingsFromEnv(new Env({})), undefined);
});

Deno.test("malformed values are one-line ConfigErrors naming the variable", async () => {
  const s3 = { S3_ENDPOINT: "http://127.0.0.1:9000", BUCKET: "priv", PUBLIC_BUCKET: "pub" };
  const cases: [Record<string, string>, string][] = [
    [{ MAX_OBJECT_BYTES: "lots" }, "MAX_OBJECT_BYTES"],
    [{ MAX_OBJECT_BYTES: "0" }, "MAX_OBJECT_BYTES"],
    [{ PUBLIC_BUCKET_URL: "localhost:8008/public" }, "PUBLIC_BUCKET_URL"],
    [{ BUCKET: "../escape" }, "BUCKET"],
    [{ PUBLIC_BUCKET: "Has_Caps" }, "PUBLIC_BUCKET"],
    [{ BUCKET: "a..b" }, "BUCKET"],
    [{ BUCKET: "same", PUBLIC_BUCKET: "same" }, "PUBLIC_BUCKET"],
    [{ BUCKET: "private", PUBLIC_BUCKET: "private" }, "PUBLIC_BUCKET"],
    [{ ...s3, S3_ENDPOINT: "ftp://x" }, "S3_ENDPOINT"],
    [{ ...s3, S3_REGION: "Mars 1" }, "S3_REGION"],
    [{ ...s3, S3_FORCE_PATH_STYLE: "perhaps" }, "S3_FORCE_PATH_STYLE"],
    [{ ...s3, S3_ACCESS_KEY_ID: "only-the-id" }, "S3_SECRET_ACCESS_KEY"],
    [{ S3_ENDPOINT: "http://127.0.0.1:9000", PUBLIC_BUCKET: "pub" }, "BUCKET"],
    [{ S3_ENDPOINT: "http://127.0.0.1:9000", BUCKET: "priv" }, "PUBLIC_BUCKET"],
  ];
  for (const [vars, name] of cases) {
    await assert.rejects(() => bucketsFromEnv(new Env(vars)), (err: Error) => {
      assert.ok(err instanceof ConfigError, JSON.stringify(vars));
      assert.ok(err.message.startsWith(`${name} `), err.message);
      assert.ok(!err.message.includes("\n"));
      return true;
    });
  }
});
