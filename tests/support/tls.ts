/**
 * Self-signed certificates for test host names and 127.0.0.1, made with the system's
 * `openssl` (once per name list and process), so HTTPS servers on loopback are real TLS (the
 * safe fetch trusts them through its `ca` test hook). Fails loudly when openssl is missing:
 * it is never skipped.
 */

/** A PEM certificate and its private key. */
export interface TestCertificate {
  cert: string;
  key: string;
}

const made = new Map<string, Promise<TestCertificate>>();

/** A certificate valid for `hosts` (exact names; TLS refuses wildcards on `*.test`) and 127.0.0.1. */
export function testCertificate(hosts: readonly string[]): Promise<TestCertificate> {
  const key = hosts.join(",");
  let cert = made.get(key);
  if (!cert) made.set(key, cert = makeCertificate(hosts));
  return cert;
}

async function makeCertificate(hosts: readonly string[]): Promise<TestCertificate> {
  const names = [...hosts.map((h) => `DNS:${h}`), "IP:127.0.0.1"].join(",");
  const dir = await Deno.makeTempDir({ prefix: "test-tls-" });
  try {
    const { success, stderr } = await new Deno.Command("openssl", {
      args: [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        `${dir}/key.pem`,
        "-out",
        `${dir}/cert.pem`,
        "-days",
        "2",
        "-subj",
        `/CN=${hosts[0] ?? "localhost"}`,
        "-addext",
        `subjectAltName=${names}`,
      ],
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!success) throw new Error(`openssl failed: ${new TextDecoder().decode(stderr)}`);
    return {
      cert: await Deno.readTextFile(`${dir}/cert.pem`),
      key: await Deno.readTextFile(`${dir}/key.pem`),
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** A handler served on loopback over plain HTTP and over TLS with the test certificate. */
export interface TwinServers {
  httpPort: number;
  httpsPort: number;
  /** The certificate HTTPS clients must trust. */
  cert: string;
  close(): Promise<void>;
}

/** Serves `handler` on two ephemeral loopback ports, one plain, one TLS for `hosts`. */
export async function startTwinServers(
  hosts: readonly string[],
  handler: (req: Request, scheme: "http" | "https") => Response | Promise<Response>,
): Promise<TwinServers> {
  const { cert, key } = await testCertificate(hosts);
  const controller = new AbortController();
  const base = { hostname: "127.0.0.1", port: 0, signal: controller.signal, onListen() {} };
  const plain = Deno.serve(base, (req) => handler(req, "http"));
  const tls = Deno.serve({ ...base, cert, key }, (req) => handler(req, "https"));
  return {
    httpPort: plain.addr.port,
    httpsPort: tls.addr.port,
    cert,
    async close() {
      controller.abort();
      await Promise.all([plain.finished, tls.finished]);
    },
  };
}
