/**
 * A fake Upstash Redis REST API on 127.0.0.1, speaking the wire format the real
 * `@upstash/redis` client uses: `POST /` with one command as a JSON array, `POST /pipeline`
 * with an array of them, `Authorization: Bearer <token>`, `{result}` / `{error}` bodies, and
 * with `Upstash-Encoding: base64` every bulk string result base64-encoded (a top-level status
 * reply such as `OK` stays plain, as on the real service). Scripts run as on Redis (`EVAL`,
 * `EVALSHA`, `SCRIPT LOAD`/`EXISTS`/`FLUSH`): Lua on fengari (./lua_script.ts), cached by
 * SHA-1, so `@upstash/ratelimit`'s scripts run as written, `NOSCRIPT` fallback included. It
 * records every request and command, keeps its own clock (`advance`) for TTLs, and can be
 * told to fail with 500 or to hang.
 */

import { createHash } from "node:crypto";
import { runScript, ScriptError } from "./lua_script.ts";

/** How the fake answers: normally, with HTTP 500, or never (until the caller gives up). */
export type FakeMode = "ok" | "error" | "hang";

/** One HTTP request the fake received. */
export interface FakeRequest {
  path: string;
  /** The `Upstash-Encoding` header (null when absent). */
  encoding: string | null;
  /** The commands it carried, names upper-cased, arguments as strings. */
  commands: string[][];
}

/** A running fake. */
export interface UpstashFake {
  /** Base URL for `UPSTASH_REDIS_REST_URL`. */
  readonly url: string;
  /** The token it accepts. */
  readonly token: string;
  /** Every request received, in order (refused ones included). */
  readonly requests: FakeRequest[];
  /** Every command received, in order. */
  readonly commands: string[][];
  /** The current answer mode. */
  mode: FakeMode;
  /** Moves the fake's clock forward (entries with a TTL expire by it). */
  advance(ms: number): void;
  /** Milliseconds left on a key: -2 when absent, -1 when it has no TTL. */
  pttl(key: string): number;
  /** Puts a value directly (as another writer would). */
  put(key: string, value: string, ttlMs?: number): void;
  /** Forgets the recorded requests and commands. */
  clearLog(): void;
  /** Releases hanging requests and stops the server. */
  close(): Promise<void>;
}

interface Entry {
  value: string;
  /** Expiry on the fake clock, or null for none. */
  expires: number | null;
}

/** A reply before encoding: status replies are never base64-encoded, bulk strings are. */
type Reply =
  | { status: string }
  | { bulk: string | null }
  | { int: number }
  | { array: Reply[] }
  | { error: string };

class CommandError extends Error {}

/**
 * A reply as JSON. A top-level status reply stays plain (the client passes `OK` through);
 * inside an array every string is encoded, status replies included (the client decodes
 * every string of an array).
 */
function encodeReply(reply: Reply, base64: boolean, nested = false): unknown {
  if ("status" in reply && !nested) return reply.status;
  if ("int" in reply) return reply.int;
  if ("array" in reply) return reply.array.map((r) => encodeReply(r, base64, true));
  if ("error" in reply) return reply.error;
  const text = "status" in reply ? reply.status : reply.bulk;
  if (text === null) return null;
  if (!base64) return text;
  const bytes = new TextEncoder().encode(text);
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

/** Starts the fake on a free port of 127.0.0.1. */
export function startUpstashFake(token = "fake-upstash-token"): Promise<UpstashFake> {
  const data = new Map<string, Entry>();
  const requests: FakeRequest[] = [];
  const commands: string[][] = [];
  const hanging = new Set<() => void>();
  let offset = 0;
  let mode: FakeMode = "ok";
  const now = () => Date.now() + offset;

  const live = (key: string): Entry | undefined => {
    const entry = data.get(key);
    if (entry && entry.expires !== null && entry.expires <= now()) {
      data.delete(key);
      return undefined;
    }
    return entry;
  };

  const scripts = new Map<string, string>();
  const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");

  const incrBy = (key: string, by: string): Reply => {
    const entry = live(key);
    const current = entry ? Number(entry.value) : 0;
    const step = Number(by);
    if (!/^-?\d+$/.test(by) || (entry && !/^-?\d+$/.test(entry.value))) {
      throw new CommandError("ERR value is not an integer or out of range");
    }
    const value = current + step;
    data.set(key, { value: String(value), expires: entry?.expires ?? null });
    return { int: value };
  };

  const expire = (key: string, ms: number): Reply => {
    const entry = live(key);
    if (!entry) return { int: 0 };
    if (ms <= 0) data.delete(key);
    else entry.expires = now() + ms;
    return { int: 1 };
  };

  const evalScript = (source: string, rest: string[]): Reply => {
    const n = Number(rest[0]);
    if (!Number.isInteger(n) || n < 0 || n > rest.length - 1) {
      throw new CommandError("ERR Number of keys can't be greater than number of args");
    }
    try {
      return runScript(source, rest.slice(1, 1 + n), rest.slice(1 + n), run);
    } catch (err) {
      if (err instanceof ScriptError) throw new CommandError(err.message);
      throw err;
    }
  };

  const run = (cmd: string[]): Reply => {
    const [name, ...args] = cmd;
    switch (name) {
      case "EVAL": {
        // Redis keeps every script it ran, so EVALSHA finds it afterwards.
        scripts.set(sha1(args[0]), args[0]);
        return evalScript(args[0], args.slice(1));
      }
      case "EVALSHA": {
        const source = scripts.get(args[0]?.toLowerCase());
        if (source === undefined) {
          throw new CommandError("NOSCRIPT No matching script. Please use EVAL.");
        }
        return evalScript(source, args.slice(1));
      }
      case "SCRIPT": {
        const sub = args[0]?.toUpperCase();
        if (sub === "LOAD") {
          const hash = sha1(args[1]);
          scripts.set(hash, args[1]);
          return { bulk: hash };
        }
        if (sub === "EXISTS") {
          return {
            array: args.slice(1).map((h) => ({ int: scripts.has(h.toLowerCase()) ? 1 : 0 })),
          };
        }
        if (sub === "FLUSH") {
          scripts.clear();
          return { status: "OK" };
        }
        throw new CommandError(`ERR unknown subcommand '${args[0]}'`);
      }
      case "INCR":
        return incrBy(args[0], "1");
      case "INCRBY":
        return incrBy(args[0], args[1]);
      case "PEXPIRE":
        return expire(args[0], Number(args[1]));
      case "EXPIRE":
        return expire(args[0], Number(args[1]) * 1000);
      case "PING":
        return { status: "PONG" };
      case "GET":
        return { bulk: live(args[0])?.value ?? null };
      case "SET":
        return set(args);
      case "DEL":
        return { int: args.filter((k) => live(k) && data.delete(k)).length };
      case "EXISTS":
        return { int: args.filter((k) => live(k)).length };
      case "PTTL":
      case "TTL": {
        const entry = live(args[0]);
        const ms = !entry ? -2 : entry.expires === null ? -1 : entry.expires - now();
        return { int: ms < 0 || name === "PTTL" ? ms : Math.ceil(ms / 1000) };
      }
      case "FLUSHDB":
      case "FLUSHALL":
        data.clear();
        return { status: "OK" };
      default:
        throw new CommandError(`ERR unknown command '${name}'`);
    }
  };

  const set = (args: string[]): Reply => {
    const [key, value, ...opts] = args;
    if (key === undefined || value === undefined) {
      throw new CommandError("ERR wrong number of arguments for 'set' command");
    }
    let expires: number | null = null;
    let nx = false, xx = false, get = false, keep = false;
    for (let i = 0; i < opts.length; i++) {
      const opt = opts[i].toUpperCase();
      const n = () => {
        const v = Number(opts[++i]);
        if (!Number.isInteger(v) || v <= 0) {
          throw new CommandError("ERR invalid expire time in 'set' command");
        }
        return v;
      };
      if (opt === "EX") expires = now() + n() * 1000;
      else if (opt === "PX") expires = now() + n();
      else if (opt === "EXAT") expires = n() * 1000;
      else if (opt === "PXAT") expires = n();
      else if (opt === "NX") nx = true;
      else if (opt === "XX") xx = true;
      else if (opt === "GET") get = true;
      else if (opt === "KEEPTTL") keep = true;
      else throw new CommandError("ERR syntax error");
    }
    const old = live(key);
    const reply: Reply = get ? { bulk: old?.value ?? null } : { status: "OK" };
    if ((nx && old) || (xx && !old)) return get ? reply : { bulk: null };
    data.set(key, { value, expires: keep && old ? old.expires : expires });
    return reply;
  };

  const toCommand = (raw: unknown): string[] => {
    if (!Array.isArray(raw) || raw.length === 0) throw new CommandError("ERR invalid command");
    const cmd = raw.map((a) => typeof a === "string" ? a : JSON.stringify(a));
    cmd[0] = cmd[0].toUpperCase();
    return cmd;
  };

  const answer = (cmd: string[]): { result?: Reply; error?: string } => {
    try {
      return { result: run(cmd) };
    } catch (err) {
      if (err instanceof CommandError) return { error: err.message };
      throw err;
    }
  };

  const releaseHanging = () => {
    for (const release of hanging) release();
    hanging.clear();
  };

  const handler = async (req: Request): Promise<Response> => {
    const path = new URL(req.url).pathname;
    const encoding = req.headers.get("upstash-encoding");
    const record: FakeRequest = { path, encoding, commands: [] };
    requests.push(record);
    const base64 = encoding?.toLowerCase() === "base64";
    const json = (body: unknown, status = 200) => Response.json(body, { status });

    if (req.headers.get("authorization") !== `Bearer ${token}`) {
      await req.body?.cancel();
      return json({ error: "Unauthorized" }, 401);
    }
    let body: unknown;
    try {
      body = await req.json();
    } catch {
      return json({ error: "ERR failed to parse command" }, 400);
    }
    const batch = path === "/pipeline" || path === "/multi-exec";
    let cmds: string[][];
    try {
      cmds = batch
        ? (Array.isArray(body) ? body : [body]).map(toCommand)
        : path === "/"
        ? [toCommand(body)]
        : [];
    } catch (err) {
      return json({ error: (err as Error).message }, 400);
    }
    if (cmds.length === 0) return json({ error: "ERR unknown endpoint" }, 404);
    record.commands.push(...cmds);
    commands.push(...cmds);

    if (mode === "error") return json({ error: "ERR fake outage" }, 500);
    if (mode === "hang") {
      // Held until the mode changes or the fake closes (the client gives up long before).
      await new Promise<void>((resolve) => hanging.add(resolve));
      return json({ error: "ERR fake hang released" }, 503);
    }

    const results = cmds.map(answer).map(({ result, error }) =>
      error !== undefined ? { error } : { result: encodeReply(result!, base64) }
    );
    if (batch) return json(results);
    return results[0].error !== undefined ? json(results[0], 400) : json(results[0]);
  };

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handler);
  const fake: UpstashFake = {
    url: `http://127.0.0.1:${server.addr.port}`,
    token,
    requests,
    commands,
    get mode() {
      return mode;
    },
    set mode(next: FakeMode) {
      mode = next;
      // Leaving "hang" lets the held requests go, as a recovered service would.
      if (next !== "hang") releaseHanging();
    },
    advance: (ms) => {
      offset += ms;
    },
    pttl: (key) => {
      const entry = live(key);
      return !entry ? -2 : entry.expires === null ? -1 : entry.expires - now();
    },
    put: (key, value, ttlMs) => {
      data.set(key, { value, expires: ttlMs === undefined ? null : now() + ttlMs });
    },
    clearLog: () => {
      requests.length = 0;
      commands.length = 0;
    },
    close: async () => {
      releaseHanging();
      await server.shutdown();
    },
  };
  return Promise.resolve(fake);
}
