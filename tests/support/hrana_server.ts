/**
 * A libSQL server on 127.0.0.1 speaking Hrana 2 over HTTP (the protocol `@libsql/client/web`
 * uses for `http://`, `https://` and `libsql://` URLs), backed by the real libSQL engine (the
 * native `libsql` package under `@libsql/client`) on a database file. It implements what the
 * client sends: `POST /v2/pipeline` with `execute`, `batch` (with step conditions),
 * `sequence`, `store_sql`/`close_sql`, `get_autocommit` and `close` requests; streams are
 * kept between requests by their `baton`, each on its own connection, so transactions span
 * requests as on a real server. `GET /v2` answers 200 (version probe), anything else 404.
 *
 * For fault tests it can be told to refuse (HTTP 503) or to hang, and it can require a token.
 *
 * ```ts
 * await using server = await startHranaServer({ path: `${dir}/remote.db` });
 * const db = createClient({ url: server.url }); // from "@libsql/client/web"
 * ```
 */
import Database from "libsql";

/** How the server answers pipelines: normally, with HTTP 503, or never (until released). */
export type HranaMode = "ok" | "error" | "hang";

/** Options of {@link startHranaServer}. */
export interface HranaServerOptions {
  /** The database file (created when absent). */
  path: string;
  /** When set, requests must carry `Authorization: Bearer <token>` (else 401). */
  token?: string;
  /** Idle time after which a stream (and its connection) is dropped (default 10 s). */
  streamIdleMs?: number;
  /** Port on 127.0.0.1 (default: a free one). */
  port?: number;
}

/** A running server. */
export interface HranaServer extends AsyncDisposable {
  /** `http://127.0.0.1:<port>`: the `DB_URL` for a client. */
  readonly url: string;
  /** The current answer mode (see {@link HranaMode}). */
  mode: HranaMode;
  /** Pipeline requests received so far (refused and hanging ones included). */
  readonly pipelines: number;
  /** Streams open now. */
  readonly openStreams: number;
  /** Releases hanging requests, closes every connection and stops listening. */
  close(): Promise<void>;
}

/** A Hrana value on the wire. */
type WireValue =
  | { type: "null" }
  | { type: "integer"; value: string }
  | { type: "float"; value: number }
  | { type: "text"; value: string }
  | { type: "blob"; base64: string };

interface WireStmt {
  sql?: string;
  sql_id?: number;
  args?: WireValue[];
  named_args?: { name: string; value: WireValue }[];
  want_rows?: boolean;
}

type WireCond =
  | { type: "ok" | "error"; step: number }
  | { type: "not"; cond: WireCond }
  | { type: "and" | "or"; conds: WireCond[] }
  | { type: "is_autocommit" };

interface WireRequest {
  type: string;
  stmt?: WireStmt;
  batch?: { steps: { condition?: WireCond | null; stmt: WireStmt }[] };
  sql?: string;
  sql_id?: number;
}

type SqlValue = null | bigint | number | string | Uint8Array;

/** An error to report in a result (a failed statement), not as an HTTP failure. */
class StmtError extends Error {
  constructor(message: string, readonly code?: string) {
    super(message);
  }
}

interface Stream {
  db: Database.Database;
  sqls: Map<number, string>;
  timer: ReturnType<typeof setTimeout> | undefined;
}

function toSql(value: WireValue): SqlValue {
  switch (value.type) {
    case "null":
      return null;
    case "integer":
      return BigInt(value.value);
    case "float":
      return value.value;
    case "text":
      return value.value;
    case "blob":
      return Uint8Array.from(atob(value.base64), (c) => c.charCodeAt(0));
    default:
      throw new StmtError(`unknown value type ${(value as { type: string }).type}`);
  }
}

function toWire(value: unknown): WireValue {
  if (value === null || value === undefined) return { type: "null" };
  if (typeof value === "bigint") return { type: "integer", value: String(value) };
  if (typeof value === "number") {
    return Number.isInteger(value)
      ? { type: "integer", value: String(value) }
      : { type: "float", value };
  }
  if (typeof value === "string") return { type: "text", value };
  if (value instanceof Uint8Array || value instanceof ArrayBuffer) {
    const bytes = value instanceof Uint8Array ? value : new Uint8Array(value);
    let bin = "";
    for (const b of bytes) bin += String.fromCharCode(b);
    return { type: "blob", base64: btoa(bin) };
  }
  return { type: "text", value: String(value) };
}

/** Runs one statement on a connection and returns its Hrana `StmtResult`. */
function execute(stream: Stream, stmt: WireStmt) {
  const sql = stmt.sql ?? (stmt.sql_id !== undefined ? stream.sqls.get(stmt.sql_id) : undefined);
  if (sql === undefined) throw new StmtError("statement has neither sql nor a known sql_id");
  let args: SqlValue[] | Record<string, SqlValue> = (stmt.args ?? []).map(toSql);
  if (stmt.named_args?.length) {
    const named: Record<string, SqlValue> = {};
    // libSQL binds names without their sigil (`:a`, `@a`, `$a` are all `a`).
    for (const { name, value } of stmt.named_args) named[name.replace(/^[:@$]/, "")] = toSql(value);
    args = named;
  }
  try {
    const prepared = stream.db.prepare(sql);
    prepared.safeIntegers(true);
    let returnsRows = true;
    try {
      prepared.raw(true);
    } catch {
      returnsRows = false; // raw() refuses statements that return no data
    }
    if (returnsRows) {
      const cols = prepared.columns().map((c) => ({ name: c.name, decltype: c.type ?? null }));
      const rows = prepared.all(args) as unknown[][];
      return {
        cols,
        rows: stmt.want_rows === false ? [] : rows.map((row) => row.map(toWire)),
        affected_row_count: 0,
        last_insert_rowid: null,
      };
    }
    const info = prepared.run(args);
    return {
      cols: [],
      rows: [],
      affected_row_count: Number(info.changes),
      last_insert_rowid: String(info.lastInsertRowid),
    };
  } catch (err) {
    if (err instanceof StmtError) throw err;
    const e = err as { message?: string; code?: string };
    throw new StmtError(e.message ?? String(err), e.code ?? "SQLITE_ERROR");
  }
}

function evalCond(
  cond: WireCond,
  results: (unknown | null)[],
  errors: (unknown | null)[],
  stream: Stream,
): boolean {
  switch (cond.type) {
    case "ok":
      return results[cond.step] != null;
    case "error":
      return errors[cond.step] != null;
    case "not":
      return !evalCond(cond.cond, results, errors, stream);
    case "and":
      return cond.conds.every((c) => evalCond(c, results, errors, stream));
    case "or":
      return cond.conds.some((c) => evalCond(c, results, errors, stream));
    case "is_autocommit":
      return !stream.db.inTransaction;
  }
}

function errorOf(err: unknown) {
  const e = err instanceof StmtError ? err : new StmtError(String(err));
  return e.code ? { message: e.message, code: e.code } : { message: e.message };
}

/** Answers one stream request (throws StmtError for a failed one). */
function handle(stream: Stream, req: WireRequest): Record<string, unknown> {
  switch (req.type) {
    case "execute":
      return { type: "execute", result: execute(stream, req.stmt!) };
    case "batch": {
      const steps = req.batch?.steps ?? [];
      const results: (unknown | null)[] = [];
      const errors: (unknown | null)[] = [];
      for (const [i, step] of steps.entries()) {
        results[i] = null;
        errors[i] = null;
        if (step.condition && !evalCond(step.condition, results, errors, stream)) continue;
        try {
          results[i] = execute(stream, step.stmt);
        } catch (err) {
          errors[i] = errorOf(err);
        }
      }
      return { type: "batch", result: { step_results: results, step_errors: errors } };
    }
    case "sequence": {
      const sql = req.sql ?? (req.sql_id !== undefined ? stream.sqls.get(req.sql_id) : undefined);
      if (sql === undefined) throw new StmtError("sequence has neither sql nor a known sql_id");
      try {
        stream.db.exec(sql);
      } catch (err) {
        const e = err as { message?: string; code?: string };
        throw new StmtError(e.message ?? String(err), e.code ?? "SQLITE_ERROR");
      }
      return { type: "sequence" };
    }
    case "store_sql":
      stream.sqls.set(req.sql_id!, req.sql!);
      return { type: "store_sql" };
    case "close_sql":
      stream.sqls.delete(req.sql_id!);
      return { type: "close_sql" };
    case "get_autocommit":
      return { type: "get_autocommit", is_autocommit: !stream.db.inTransaction };
    case "close":
      return { type: "close" };
    default:
      throw new StmtError(`request type ${req.type} is not supported by this server`);
  }
}

/** Starts the server on a free port of 127.0.0.1 over the database file at `options.path`. */
export function startHranaServer(options: HranaServerOptions): Promise<HranaServer> {
  const idleMs = options.streamIdleMs ?? 10_000;
  const streams = new Map<string, Stream>();
  const hanging = new Set<() => void>();
  let mode: HranaMode = "ok";
  let pipelines = 0;

  const dropStream = (baton: string) => {
    const stream = streams.get(baton);
    if (!stream) return;
    clearTimeout(stream.timer);
    streams.delete(baton);
    try {
      stream.db.close();
    } catch {
      // already closed
    }
  };
  const keep = (baton: string, stream: Stream) => {
    clearTimeout(stream.timer);
    stream.timer = setTimeout(() => dropStream(baton), idleMs);
    streams.set(baton, stream);
  };
  const releaseHanging = () => {
    for (const release of hanging) release();
    hanging.clear();
  };

  const pipeline = async (req: Request): Promise<Response> => {
    pipelines++;
    if (mode === "error") {
      await req.body?.cancel();
      return Response.json({ message: "fake outage" }, { status: 503 });
    }
    if (mode === "hang") {
      await new Promise<void>((resolve) => hanging.add(resolve));
      return Response.json({ message: "released" }, { status: 503 });
    }
    let body: { baton?: string | null; requests?: WireRequest[] };
    try {
      body = await req.json();
    } catch {
      return Response.json({ message: "Body is not JSON" }, { status: 400 });
    }
    let baton = body.baton ?? null;
    let stream: Stream | undefined;
    if (baton !== null) {
      stream = streams.get(baton);
      if (!stream) return Response.json({ message: "Unknown stream baton" }, { status: 400 });
    } else {
      stream = {
        db: new Database(options.path, { timeout: 5_000 }),
        sqls: new Map(),
        timer: undefined,
      };
      baton = crypto.randomUUID();
    }
    const results = [];
    let closed = false;
    for (const r of body.requests ?? []) {
      try {
        results.push({ type: "ok", response: handle(stream, r) });
      } catch (err) {
        results.push({ type: "error", error: errorOf(err) });
      }
      if (r.type === "close") closed = true;
    }
    if (closed) {
      streams.set(baton, stream);
      dropStream(baton);
      return Response.json({ baton: null, base_url: null, results });
    }
    keep(baton, stream);
    return Response.json({ baton, base_url: null, results });
  };

  const server = Deno.serve(
    { hostname: "127.0.0.1", port: options.port ?? 0, onListen: () => {} },
    async (req) => {
      const path = new URL(req.url).pathname;
      if (options.token && req.headers.get("authorization") !== `Bearer ${options.token}`) {
        await req.body?.cancel();
        return Response.json({ message: "Unauthorized" }, { status: 401 });
      }
      if (req.method === "GET" && (path === "/v2" || path === "/")) return new Response("ok");
      if (req.method === "POST" && path === "/v2/pipeline") return await pipeline(req);
      await req.body?.cancel();
      return Response.json({ message: "Not found" }, { status: 404 });
    },
  );
  const close = async () => {
    releaseHanging();
    for (const baton of [...streams.keys()]) dropStream(baton);
    await server.shutdown();
  };
  return Promise.resolve({
    url: `http://127.0.0.1:${server.addr.port}`,
    get mode() {
      return mode;
    },
    set mode(next: HranaMode) {
      mode = next;
      if (next !== "hang") releaseHanging();
    },
    get pipelines() {
      return pipelines;
    },
    get openStreams() {
      return streams.size;
    },
    close,
    [Symbol.asyncDispose]: close,
  });
}
