/** Which `<script>` elements a browser runs (data blocks such as JSON-LD and import maps are not). */

/** `type` values under which a `<script>` runs (HTML's JavaScript MIME types, and module). */
const JS_TYPE =
  /^(?:(?:text|application)\/(?:x-)?(?:java|ecma)script|text\/javascript1\.[0-5]|text\/(?:jscript|livescript)|module)$/;

/**
 * True for a script element (given by its attributes) that runs: no type, an empty one, a
 * JavaScript type, or module.
 */
export function runsAsScript(attribs: Record<string, string>): boolean {
  const essence = (attribs.type ?? "").split(";")[0].trim().toLowerCase();
  return essence === "" || JS_TYPE.test(essence);
}
