/** The zod schemas (and so the OpenAPI document and the TypeScript types) of `/inspect` results. */
import { z } from "@hono/zod-openapi";

const ms = z.number().nullable();

/** One hop of the redirect chain. */
export const RedirectSchema = z.object({
  url: z.string().openapi({ description: "Absolute URL that answered with a redirect" }),
  status: z.number().int(),
  location: z.string().openapi({ description: "Its Location, resolved to an absolute URL" }),
});

/** Phase durations of the final request, in milliseconds, as the network tab splits them. */
export const TimingSchema = z.object({
  dns: ms.openapi({ description: "DNS lookup; null for an IP literal (nothing to look up)" }),
  connect: ms.openapi({ description: "TCP connect, after DNS" }),
  tls: ms.openapi({ description: "TLS handshake, after TCP connect; null over plain HTTP" }),
  ttfb: ms.openapi({
    description: "Waiting for the server: from the connection being ready to the first byte",
  }),
  download: ms.openapi({ description: "From the first byte to the last" }),
  total: ms.openapi({ description: "The whole fetch, redirects included" }),
}).openapi("InspectTiming");

/** A cookie set by the final response, described without its value. */
export const CookieSchema = z.object({
  name: z.string(),
  domain: z.string().openapi({ description: "Domain attribute, or the response host" }),
  hostOnly: z.boolean().openapi({ description: "No Domain attribute: sent to this host only" }),
  path: z.string().openapi({ description: "Path attribute, or the default path of the URL" }),
  expires: z.string().nullable().openapi({ description: "Expires attribute as ISO 8601" }),
  maxAge: z.number().int().nullable().openapi({ description: "Max-Age attribute, seconds" }),
  session: z.boolean().openapi({ description: "Neither Expires nor Max-Age" }),
  secure: z.boolean(),
  httpOnly: z.boolean(),
  sameSite: z.string().nullable().openapi({
    description: "Strict, Lax or None; any other value as sent; null when absent",
  }),
  partitioned: z.boolean(),
}).openapi("InspectCookie");

/** Cache-Control and the other caching headers, with a verdict. */
export const CachingSchema = z.object({
  cacheControl: z.string().nullable().openapi({ description: "Raw Cache-Control" }),
  directives: z.record(z.string(), z.union([z.string(), z.literal(true)])).openapi({
    description: "Cache-Control parsed: lowercased directive → value, or true when valueless",
  }),
  etag: z.string().nullable(),
  lastModified: z.string().nullable(),
  age: z.number().int().nullable(),
  vary: z.array(z.string()),
  expires: z.string().nullable(),
  pragma: z.string().nullable(),
  policy: z.enum(["no-store", "revalidate", "fresh", "heuristic", "not-cacheable"]),
  freshFor: z.number().int().nullable().openapi({
    description:
      "Seconds a browser may still reuse the response without asking: the explicit lifetime " +
      "less Age; null without an explicit lifetime",
  }),
  verdict: z.string().openapi({ example: "cacheable for 1h" }),
}).openapi("InspectCaching");

/** Transfer compression of the body. */
export const CompressionSchema = z.object({
  contentEncoding: z.string().nullable(),
  encodedBytes: z.number().int().openapi({ description: "Body bytes on the wire" }),
  decodedBytes: z.number().int().openapi({ description: "Body bytes after decompression" }),
  ratio: z.number().nullable().openapi({ description: "encoded / decoded; null for no body" }),
  advice: z.string().nullable(),
}).openapi("InspectCompression");

/** The certificate the server presented. */
export const CertificateSchema = z.object({
  subject: z.string().openapi({ example: "CN=example.com" }),
  issuer: z.string().openapi({ example: "C=US, O=Let's Encrypt, CN=R11" }),
  subjectAltNames: z.array(z.string()).openapi({ example: ["DNS:example.com"] }),
  notBefore: z.string().openapi({ description: "ISO 8601" }),
  notAfter: z.string().openapi({ description: "ISO 8601" }),
  daysLeft: z.number().int().openapi({
    description: "Whole days until notAfter; negative once expired",
  }),
  selfSigned: z.boolean(),
  serialNumber: z.string(),
  fingerprint256: z.string(),
}).openapi("TlsCertificate");

/** The TLS handshake with the final URL's host (null for an http:// page). */
export const TlsSchema = z.object({
  error: z.string().nullable().openapi({ description: "Why no handshake completed, else null" }),
  protocol: z.string().nullable().openapi({ example: "TLSv1.3" }),
  cipher: z.string().nullable().openapi({ example: "TLS_AES_256_GCM_SHA384" }),
  authorized: z.boolean().openapi({ description: "The chain verifies against trusted roots" }),
  authorizationError: z.string().nullable().openapi({ example: "CERT_HAS_EXPIRED" }),
  nameMismatch: z.string().nullable().openapi({
    description: "Why the host is not among the certificate's names, else null",
  }),
  certificate: CertificateSchema.nullable(),
}).openapi("InspectTls");

/** One row of the security audit. */
export const SecurityCheckSchema = z.object({
  id: z.string().openapi({ example: "strict-transport-security" }),
  title: z.string().openapi({ example: "Strict Transport Security (HSTS)" }),
  pass: z.boolean(),
  scoreModifier: z.number().int(),
  result: z.string().openapi({ description: "Outcome id, as the HTTP Observatory names it" }),
  summary: z.string(),
  advice: z.string().nullable(),
  evidence: z.array(z.string()).openapi({ description: "What the verdict rests on" }),
}).openapi("InspectSecurityCheck");

/** The scored audit. */
export const SecuritySchema = z.object({
  score: z.number().int().openapi({
    description:
      "100 plus the checks' modifiers (bonuses only when the penalties leave 90 or more)",
  }),
  grade: z.string().openapi({ example: "B+" }),
  testsPassed: z.number().int(),
  testsFailed: z.number().int(),
  checks: z.array(SecurityCheckSchema),
}).openapi("InspectSecurity");

/** Statistics of an HTML page. */
export const PageSchema = z.object({
  bytes: z.number().int().openapi({ description: "Decoded body bytes" }),
  doctype: z.string().nullable().openapi({ example: "html" }),
  title: z.string().nullable(),
  lang: z.string().nullable(),
  charset: z.string().openapi({ description: "The charset the page was decoded with" }),
  elements: z.number().int(),
  scripts: z.number().int(),
  externalScripts: z.number().int(),
  inlineScripts: z.number().int(),
  stylesheets: z.number().int().openapi({ description: "`<link rel=stylesheet>`" }),
  inlineStyles: z.number().int().openapi({ description: "`<style>` elements" }),
  images: z.number().int(),
  imagesWithoutAlt: z.number().int(),
  links: z.number().int().openapi({ description: "`<a href>` and `<area href>`" }),
  forms: z.number().int(),
  iframes: z.number().int(),
  inlineScriptBytes: z.number().int(),
  inlineStyleBytes: z.number().int(),
}).openapi("InspectPage");

/** How the response body was treated. */
export const BodyKindSchema = z.enum(["html", "json", "text", "image", "media", "binary", "empty"]);

/** The result of `GET /inspect`. */
export const InspectResultSchema = z.object({
  url: z.string().openapi({ description: "The URL as requested (normalised)" }),
  finalUrl: z.string(),
  status: z.number().int().openapi({ description: "Upstream status of the final response" }),
  statusText: z.string(),
  fetchedAt: z.string().openapi({ description: "ISO 8601" }),
  httpVersion: z.string().openapi({ example: "HTTP/1.1" }),
  remoteAddress: z.string().nullable(),
  contentType: z.string().nullable(),
  bodyKind: BodyKindSchema,
  redirects: z.array(RedirectSchema),
  timing: TimingSchema,
  headers: z.record(z.string(), z.string()).openapi({
    description: "Final response headers, lowercased names, repeated ones joined with ', '; " +
      "Set-Cookie is left out (see cookies: values are never shown)",
  }),
  cookies: z.array(CookieSchema),
  caching: CachingSchema,
  compression: CompressionSchema,
  tls: TlsSchema.nullable().openapi({
    description: "The final host's TLS certificate, protocol and cipher; null over plain HTTP",
  }),
  security: SecuritySchema,
  page: PageSchema.nullable().openapi({ description: "HTML statistics; null for other bodies" }),
}).openapi("InspectResult");

/** A `/inspect` result. */
export type InspectResult = z.infer<typeof InspectResultSchema>;
/** A cookie as reported. */
export type CookieInfo = z.infer<typeof CookieSchema>;
/** Caching as reported. */
export type CachingInfo = z.infer<typeof CachingSchema>;
/** Compression as reported. */
export type CompressionInfo = z.infer<typeof CompressionSchema>;
/** Page statistics as reported. */
export type PageStats = z.infer<typeof PageSchema>;
/** Timing as reported. */
export type TimingInfo = z.infer<typeof TimingSchema>;
/** The audit as reported. */
export type SecurityReport = z.infer<typeof SecuritySchema>;
/** One audit row as reported. */
export type SecurityCheckResult = z.infer<typeof SecurityCheckSchema>;
/** TLS as reported. */
export type TlsInfo = z.infer<typeof TlsSchema>;
/** A body kind. */
export type BodyKind = z.infer<typeof BodyKindSchema>;
