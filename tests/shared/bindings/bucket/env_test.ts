import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { FsBucket } from "../../../../shared/bindings/bucket/fs.ts";
import { LazyS3Bucket } from "../../../../shared/bindings/bucket/lazy_s3.ts";
import {
  bucketsFromEnv,
  s3SettingsFromEnv,
  s3TimeoutsFromEnv,
} from "../../../../shared/bindings/bucket/env.ts";
import { DEFAULT_S3_TIMEOUTS } from "../../../../shared/bindings/bucket/s3_deadline.ts";
import { ConfigError, Env } from "../../../../shared/contract/config.ts";

const BINDINGS = { BUCKET: "private", PUBLIC_BUCKET: "public" };

Deno.test("no S3 variables: one folder per binding under DATA_DIR/buckets", async () => {
  const b = await bucketsFromEnv(new Env({}), BINDINGS);
  assert.deepEqual(Object.keys(b).sort(), ["BUCKET", "PUBLIC_BUCKET"]);
  assert.ok(b.BUCKET instanceof FsBucket && b.PUBLIC_BUCKET instanceof FsBucket);
  assert.equal(b.BUCKET.root, resolve(".data/buckets/private"));
  assert.equal(b.PUBLIC_BUCKET.root, resolve(".data/buckets/public"));

  const named = await bucketsFromEnv(
    new Env({ DATA_DIR: "/tmp/x", BUCKET: "mine", PUBLIC_BUCKET: "shared.assets" }),
    BINDINGS,
  );
  assert.equal((named.BUCKET as FsBucket).root, join("/tmp/x", "buckets", "mine"));
  assert.equal((named.PUBLIC_BUCKET as FsBucket).root, join("/tmp/x", "buckets", "shared.assets"));

  // Any binding name works: the variable names the bucket, the value given is the default.
  const one = await bucketsFromEnv(new Env({ DATA_DIR: "/tmp/y" }), { ASSETS: "assets" });
  assert.equal((one.ASSETS as FsBucket).root, join("/tmp/y", "buckets", "assets"));
});

Deno.test("S3_ENDPOINT or S3 keys select the S3 adapter, and nothing touches the disk", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "bucket-env-" });
  await Deno.remove(dataDir);
  const b = await bucketsFromEnv(
    new Env({
      S3_ENDPOINT: "http://127.0.0.1:9000",
      S3_ACCESS_KEY_ID: "id",
      S3_SECRET_ACCESS_KEY: "secret",
      BUCKET: "priv",
      PUBLIC_BUCKET: "pub",
      DATA_DIR: dataDir,
    }),
    BINDINGS,
    { maxObjectBytes: 1024 },
  );
  // S3 buckets whose adapter (and the AWS SDK) loads on first use, not at start-up.
  assert.ok(b.BUCKET instanceof LazyS3Bucket && b.PUBLIC_BUCKET instanceof LazyS3Bucket);
  assert.equal(b.BUCKET.kind, "s3");
  await assert.rejects(Deno.stat(dataDir), Deno.errors.NotFound);

  assert.deepEqual(s3SettingsFromEnv(new Env({ S3_ENDPOINT: "http://h:9000/" })), {
    endpoint: "http://h:9000",
    region: "us-east-1",
    credentials: undefined,
    forcePathStyle: true,
    timeouts: DEFAULT_S3_TIMEOUTS,
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
      timeouts: DEFAULT_S3_TIMEOUTS,
    },
  );
  assert.equal(
    s3SettingsFromEnv(new Env({ S3_ENDPOINT: "https://x", S3_FORCE_PATH_STYLE: "false" }))
      ?.forcePathStyle,
    false,
  );
  assert.equal(s3SettingsFromEnv(new Env({})), undefined);
});

Deno.test("S3_TIMEOUT_MS and S3_PART_TIMEOUT_MS set the deadlines", () => {
  assert.deepEqual(s3TimeoutsFromEnv(new Env({})), { requestMs: 10_000, partMs: 60_000 });
  assert.deepEqual(
    s3TimeoutsFromEnv(new Env({ S3_TIMEOUT_MS: "2500", S3_PART_TIMEOUT_MS: "120000" })),
    { requestMs: 2500, partMs: 120_000 },
  );
  assert.deepEqual(
    s3SettingsFromEnv(new Env({ S3_ENDPOINT: "http://h", S3_TIMEOUT_MS: "700" }))?.timeouts,
    { requestMs: 700, partMs: 60_000 },
  );
});

Deno.test("malformed values are one-line ConfigErrors naming the variable", async () => {
  const s3 = { S3_ENDPOINT: "http://127.0.0.1:9000", BUCKET: "priv", PUBLIC_BUCKET: "pub" };
  const cases: [Record<string, string>, string][] = [
    [{ S3_TIMEOUT_MS: "10s" }, "S3_TIMEOUT_MS"],
    [{ S3_TIMEOUT_MS: "0" }, "S3_TIMEOUT_MS"],
    [{ ...s3, S3_PART_TIMEOUT_MS: "-1" }, "S3_PART_TIMEOUT_MS"],
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
    await assert.rejects(() => bucketsFromEnv(new Env(vars), BINDINGS), (err: Error) => {
      assert.ok(err instanceof ConfigError, JSON.stringify(vars));
      assert.ok(err.message.startsWith(`${name} `), err.message);
      assert.ok(!err.message.includes("\n"));
      return true;
    });
  }
});
