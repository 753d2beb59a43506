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
  return once(made, hosts.join(","), () =>
    inTempDir("test-tls-", async (dir) => {
      await openssl([
        "req",
        "-x509",
        ...newKey(`${dir}/key.pem`),
        "-out",
        `${dir}/cert.pem`,
        "-days",
        "2",
        ...subject(hosts),
        "-addext",
        `subjectAltName=${altNames(hosts)}`,
      ]);
      return readPair(`${dir}/cert.pem`, `${dir}/key.pem`);
    }));
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
      ...newKey(`${dir}/ca.key`),
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
  return once(signed, `${hosts.join(",")}/${days}`, async () => {
    const ca = await throwawayCa();
    return inTempDir("test-leaf-", async (dir) => {
      await Deno.writeTextFile(`${dir}/ext.cnf`, `subjectAltName=${altNames(hosts)}\n`);
      await openssl([
        "req",
        ...newKey(`${dir}/leaf.key`),
        "-out",
        `${dir}/leaf.csr`,
        ...subject(hosts),
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
      return { ...await readPair(`${dir}/leaf.pem`, `${dir}/leaf.key`), ca: ca.cert };
    });
  });
}

/** The promise `make` gave for `id` the first time: each certificate is made once a process. */
function once<T>(cache: Map<string, Promise<T>>, id: string, make: () => Promise<T>): Promise<T> {
  let value = cache.get(id);
  if (!value) cache.set(id, value = make());
  return value;
}

/** Runs `fn` in a new temporary folder, removed afterwards. */
async function inTempDir<T>(prefix: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix });
  try {
    return await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** openssl arguments for a new unencrypted P-256 key written to `keyout`. */
function newKey(keyout: string): string[] {
  return ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", keyout];
}

/** The subject of a certificate for `hosts`: the first name. */
function subject(hosts: readonly string[]): string[] {
  return ["-subj", `/CN=${hosts[0] ?? "localhost"}`];
}

/** The subjectAltName list: every host name, and 127.0.0.1. */
function altNames(hosts: readonly string[]): string {
  return [...hosts.map((h) => `DNS:${h}`), "IP:127.0.0.1"].join(",");
}

async function readPair(certFile: string, keyFile: string): Promise<TestCertificate> {
  return { cert: await Deno.readTextFile(certFile), key: await Deno.readTextFile(keyFile) };
}

async function openssl(args: string[]): Promise<void> {
  const { success, stderr } = await new Deno.Command("openssl", {
    args,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!success) throw new Error(`openssl failed: ${new TextDecoder().decode(stderr)}`);
}
