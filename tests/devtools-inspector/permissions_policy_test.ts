/** Permissions-Policy parses as a structured-field dictionary, or not at all. */
import assert from "node:assert/strict";
import { permissionsPolicyMembers } from "../../functions/devtools-inspector/permissions_policy.ts";

Deno.test("valid dictionaries give their members", () => {
  assert.deepEqual(
    permissionsPolicyMembers(
      'camera=(), geolocation=(self "https://maps.example"),fullscreen=*, ' +
        'payment=(self);report-to="pp", interest-cohort=()',
    ),
    [
      "camera=()",
      'geolocation=(self "https://maps.example")',
      "fullscreen=*",
      'payment=(self);report-to="pp"',
      "interest-cohort=()",
    ],
  );
  assert.deepEqual(permissionsPolicyMembers('usb=("https://a.example, b")'), [
    'usb=("https://a.example, b")',
  ]);
});

Deno.test("Feature-Policy syntax and broken lists do not parse", () => {
  for (
    const value of [
      "",
      "camera 'none'",
      "geolocation 'self' https://maps.example",
      "camera=(self",
      "Camera=()",
      'camera=("unterminated)',
      "camera=(), =()",
    ]
  ) {
    assert.equal(permissionsPolicyMembers(value), null, value);
  }
});
