/** Link passwords: salted PBKDF2 records that verify the right password only. */
import assert from "node:assert/strict";
import {
  hashPassword,
  PBKDF2_ITERATIONS,
  verifyPassword,
} from "../../functions/link-shortener/password.ts";

Deno.test("hashPassword: a salted PBKDF2 record of at least 100,000 iterations", async () => {
  assert.ok(PBKDF2_ITERATIONS >= 100_000);
  const a = await hashPassword("open sesame");
  const b = await hashPassword("open sesame");
  assert.match(a, /^pbkdf2-sha256\$210000\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
  assert.notEqual(a, b, "each hash has its own salt");
  assert.ok(!a.includes("open sesame"));
});

Deno.test("verifyPassword: the right one only; a broken record verifies nothing", async () => {
  const record = await hashPassword("correct horse", 1_000);
  assert.equal(await verifyPassword("correct horse", record), true);
  assert.equal(await verifyPassword("correct hors", record), false);
  assert.equal(await verifyPassword("", record), false);
  const [prefix, n, salt, hash] = record.split("$");
  assert.equal(await verifyPassword("correct horse", [prefix, 999, salt, hash].join("$")), false);
  assert.equal(await verifyPassword("correct horse", `md5$${n}$${salt}$${hash}`), false);
  assert.equal(await verifyPassword("correct horse", "garbage"), false);
});
