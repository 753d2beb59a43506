/**
 * Certificates for test host names and 127.0.0.1, made with the system's `openssl` (once per
 * name list and process), so HTTPS servers on loopback are real TLS (the safe fetch trusts them
 * through its `ca` test hook): self-signed ones, and leaves signed by a throwaway certificate
 * authority made for the process. Fails loudly when openssl is missing: it is never skipped.
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
    await openssl([
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
    ]);
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

/** A leaf certificate signed by the process's throwaway CA, with that CA. */
export interface CaSignedCertificate extends TestCertificate {
  /** The CA certificate (PEM) a client must trust. */
  ca: string;
}

let authority: Promise<{ dir: string; cert: string }> | undefined;

/** The throwaway CA ("CN=Throwaway Test CA", 10 years), made once per process. */
function throwawayCa(): Promise<{ dir: string; cert: string }> {
  return authority ??= (async () => {
    const dir = await Deno.makeTempDir({ prefix: "test-ca-" });
    await openssl([
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-keyout",
      `${dir}/ca.key`,
      "-out",
      `${dir}/ca.pem`,
      "-days",
      "3650",
      "-subj",
      "/CN=Throwaway Test CA",
      "-addext",
      "basicConstraints=critical,CA:TRUE",
      "-addext",
      "keyUsage=critical,keyCertSign,cRLSign",
    ]);
    globalThis.addEventListener("unload", () => {
      try {
        Deno.removeSync(dir, { recursive: true });
      } catch { /* already gone */ }
    });
    return { dir, cert: await Deno.readTextFile(`${dir}/ca.pem`) };
  })();
}

const signed = new Map<string, Promise<CaSignedCertificate>>();

/** A leaf for `hosts` (and 127.0.0.1) valid `days` from now, signed by the throwaway CA. */
export function caSignedCertificate(
  hosts: readonly string[],
  days = 90,
): Promise<CaSignedCertificate> {
  const id = `${hosts.join(",")}/${days}`;
  let made = signed.get(id);
  if (!made) signed.set(id, made = makeSigned(hosts, days));
  return made;
}

async function makeSigned(hosts: readonly string[], days: number): Promise<CaSignedCertificate> {
  const ca = await throwawayCa();
  const dir = await Deno.makeTempDir({ prefix: "test-leaf-" });
  try {
    const names = [...hosts.map((h) => `DNS:${h}`), "IP:127.0.0.1"].join(",");
    await Deno.writeTextFile(`${dir}/ext.cnf`, `subjectAltName=${names}\n`);
    await openssl([
      "req",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-keyout",
      `${dir}/leaf.key`,
      "-out",
      `${dir}/leaf.csr`,
      "-subj",
      `/CN=${hosts[0] ?? "localhost"}`,
    ]);
    await openssl([
      "x509",
      "-req",
      "-in",
      `${dir}/leaf.csr`,
      "-CA",
      `${ca.dir}/ca.pem`,
      "-CAkey",
      `${ca.dir}/ca.key`,
      "-CAcreateserial",
      "-out",
      `${dir}/leaf.pem`,
      "-days",
      String(days),
      "-extfile",
      `${dir}/ext.cnf`,
    ]);
    return {
      cert: await Deno.readTextFile(`${dir}/leaf.pem`),
      key: await Deno.readTextFile(`${dir}/leaf.key`),
      ca: ca.cert,
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function openssl(args: string[]): Promise<void> {
  const { success, stderr } = await new Deno.Command("openssl", {
    args,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!success) throw new Error(`openssl failed: ${new TextDecoder().decode(stderr)}`);
}
