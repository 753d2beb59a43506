/**
 * Permissions-Policy is a structured-field dictionary (RFC 8941): `feature=(allowlist)`.
 * Browsers drop the whole header when it does not parse, and the usual mistake is the old
 * Feature-Policy syntax (`camera 'none'`), so the audit only needs to know whether it parses.
 */

const KEY = String.raw`[a-z*][a-z0-9_\-.*]*`;
const TOKEN = String.raw`[A-Za-z*][A-Za-z0-9_\-.:/%*!#$&'+^\x60|~]*`;
const STRING = String.raw`"(?:[^"\\]|\\.)*"`;
const ITEM = String.raw`(?:${TOKEN}|${STRING}|-?\d+(?:\.\d+)?|\?[01])`;
const PARAMS = String.raw`(?:\s*;\s*${KEY}(?:=${ITEM})?)*`;
const INNER_LIST = String.raw`\(\s*(?:${ITEM}${PARAMS}(?:\s+${ITEM}${PARAMS})*)?\s*\)`;
const MEMBER = new RegExp(String.raw`^${KEY}(?:=(?:${INNER_LIST}|${ITEM}))?${PARAMS}$`);

/**
 * The members of a Permissions-Policy value (`camera=()`), trimmed, or null when it does not
 * parse. Members are split on commas outside strings and parentheses.
 */
export function permissionsPolicyMembers(value: string): string[] | null {
  const members = value.match(/(?:[^,"(]+|"(?:[^"\\]|\\.)*"|\([^)]*\))+/g) ?? [];
  if (members.length === 0) return null;
  const out = members.map((m) => m.trim());
  return out.every((m) => MEMBER.test(m)) ? out : null;
}
