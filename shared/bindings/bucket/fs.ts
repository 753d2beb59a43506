/**
 * The embedded default of `BUCKET` / `PUBLIC_BUCKET`: a folder on disk,
 * `<DATA_DIR>/buckets/<name>`.
 *
 * Keys never become paths: an object lives in `objects/<sha256(key)>.<version>` with its
 * sidecar `objects/<sha256(key)>.json` (key, size, content type, etag, upload time, data file
 * name). So hostile keys cannot name a path outside the folder, keys that are both an object
 * and a "directory" (`a` and `a/b`) coexist as in S3, and long segments or case-folding file
 * systems are no concern. Every path is still resolved and checked to be inside the folder.
 *
 * Uploads stream into `tmp/`, then the data file is renamed into place and the sidecar is
 * swapped in with a rename: a reader sees the old object or the new one, never a mix, and a
 * body that is cut off leaves nothing behind. Concurrent uploads of one key commit one at a
 * time (swap the sidecar, remove the data file it replaced), so the last one wins and no data
 * file is orphaned. Files a crashed process left behind are swept (see {@link FsBucket.sweep}).
 */
import { createHash } from "node:crypto";
import { resolve, sep } from "node:path";
import {
  compareKeys,
  type GetOptions,
  InvalidKeyError,
  type ListOptions,
  type ListPage,
  type ObjectBucket,
  ObjectChangedError,
  type ObjectInfo,
  type ObjectStream,
  opaqueTag,
  type PutOptions,
} from "./bucket.ts";
import { isValidKey } from "./key.ts";

/** The sidecar of an object, as stored. */
interface Sidecar {
  key: string;
  size: number;
  contentType: string;
  etag: string;
  uploaded: string;
  /** File name of the bytes in `objects/` (a new one per upload). */
  data: string;
}

const DATA_NAME = /^[0-9a-f]{64}\.[0-9a-f-]{36}$/;
/**
 * A leftover must be this much older than the oldest upload in flight here before a sweep
 * removes it: another process sharing the folder may be writing it right now.
 */
export const SWEEP_GRACE_MS = 60_000;
/** How often uploads sweep again after the first one (once an hour). */
export const SWEEP_INTERVAL_MS = 3_600_000;
const READ_CHUNK = 64 * 1024;
// A reader may open a sidecar whose data file a concurrent upload just replaced; it retries.
const READ_ATTEMPTS = 3;

/** A bucket kept in a folder on disk. */
export class FsBucket implements ObjectBucket {
  /** Which adapter this is. */
  readonly kind = "filesystem" as const;
  /** The bucket folder, absolute. */
  readonly root: string;
  readonly #objects: string;
  readonly #tmp: string;
  #ready?: Promise<void>;
  /** Per key (its id), the commit in progress; the next one waits for it. */
  readonly #commits = new Map<string, Promise<unknown>>();
  /** Uploads in flight: temporary name → start time (ms since the epoch). */
  readonly #live = new Map<string, number>();
  #lastSweep = 0;

  /** A bucket in `dir` (created on the first upload). */
  constructor(dir: string) {
    this.root = resolve(dir);
    this.#objects = this.#inside("objects");
    this.#tmp = this.#inside("tmp");
  }

  /** Streams `body` to a temporary file, then moves it into place with its sidecar. */
  async put(
    key: string,
    body: ReadableStream<Uint8Array>,
    options: PutOptions,
  ): Promise<ObjectInfo> {
    const id = idOf(key);
    const version = crypto.randomUUID();
    this.#live.set(version, Date.now());
    try {
      await this.#ensureFolders();
      if (Date.now() - this.#lastSweep > SWEEP_INTERVAL_MS) await this.sweep();
      return await this.#put(id, version, key, body, options);
    } finally {
      this.#live.delete(version);
    }
  }

  async #put(
    id: string,
    version: string,
    key: string,
    body: ReadableStream<Uint8Array>,
    options: PutOptions,
  ): Promise<ObjectInfo> {
    const tmpData = this.#inside("tmp", version);
    const md5 = createHash("md5");
    let size = 0;
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        md5.update(chunk);
        size += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const file = await Deno.open(tmpData, { write: true, createNew: true });
    try {
      await body.pipeThrough(counter).pipeTo(file.writable);
    } catch (err) {
      closeQuietly(file);
      await removeQuietly(tmpData);
      throw err;
    }

    const sidecar: Sidecar = {
      key,
      size,
      contentType: options.contentType,
      etag: `"${md5.digest("hex")}"`,
      uploaded: new Date().toISOString(),
      data: `${id}.${version}`,
    };
    const dataPath = this.#inside("objects", sidecar.data);
    const tmpSidecar = this.#inside("tmp", `${version}.json`);
    try {
      await Deno.rename(tmpData, dataPath);
      await Deno.writeTextFile(tmpSidecar, JSON.stringify(sidecar));
      // Read-swap-remove as one step per key: two commits interleaved would both remove the
      // same previous data file and leave the first one's data file orphaned.
      await this.#serialize(id, async () => {
        const previous = await this.#readSidecar(id).catch(() => null);
        await Deno.rename(tmpSidecar, this.#sidecarPath(id));
        if (previous && previous.data !== sidecar.data) {
          await removeQuietly(this.#inside("objects", previous.data));
        }
      });
    } catch (err) {
      await Promise.all([tmpData, tmpSidecar, dataPath].map(removeQuietly));
      throw err;
    }
    return infoOf(sidecar);
  }

  /**
   * Removes what crashed uploads left: files in `tmp/`, and data files in `objects/` that their
   * key's sidecar does not name, when they were last written {@link SWEEP_GRACE_MS} before the
   * oldest upload in flight here (or before now). Runs before this bucket's first upload and
   * then at most every {@link SWEEP_INTERVAL_MS}; returns how many files it removed.
   */
  async sweep(): Promise<number> {
    this.#lastSweep = Date.now();
    const cutoff = Math.min(Date.now(), ...this.#live.values()) - SWEEP_GRACE_MS;
    const stale = async (path: string) => {
      try {
        return ((await Deno.stat(path)).mtime?.getTime() ?? Infinity) < cutoff;
      } catch {
        return false; // gone meanwhile
      }
    };
    let removed = 0;
    const remove = async (path: string) => {
      if (await stale(path) && await removeQuietly(path)) removed++;
    };
    for (const name of await fileNames(this.#tmp)) {
      if (!this.#live.has(name.replace(/\.json$/, ""))) await remove(this.#inside("tmp", name));
    }
    // Data files by key: only a key with more than one, or none named, needs its sidecar read.
    const dataByKey = new Map<string, string[]>();
    for (const name of await fileNames(this.#objects)) {
      if (!DATA_NAME.test(name)) continue;
      const id = name.slice(0, 64);
      dataByKey.set(id, [...dataByKey.get(id) ?? [], name]);
    }
    for (const [id, names] of dataByKey) {
      await this.#serialize(id, async () => {
        const current = await this.#readSidecar(id).catch(() => undefined);
        if (current === undefined) return; // unreadable: leave it for a person to look at
        for (const name of names) {
          if (name !== current?.data) await remove(this.#inside("objects", name));
        }
      });
    }
    return removed;
  }

  /** Opens the object's current data file and streams it (or the range). */
  async get(key: string, options: GetOptions = {}): Promise<ObjectStream | null> {
    const id = idOf(key);
    for (let attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
      const sidecar = await this.#readSidecar(id);
      if (!sidecar) return null;
      if (options.ifMatch && opaqueTag(options.ifMatch) !== opaqueTag(sidecar.etag)) {
        throw new ObjectChangedError();
      }
      let file: Deno.FsFile;
      try {
        file = await Deno.open(this.#inside("objects", sidecar.data), { read: true });
      } catch (err) {
        if (err instanceof Deno.errors.NotFound) continue; // replaced meanwhile: read again
        throw err;
      }
      const { range } = options;
      try {
        if (range) await file.seek(range.start, Deno.SeekMode.Start);
      } catch (err) {
        closeQuietly(file);
        throw err;
      }
      const length = range ? range.end - range.start + 1 : sidecar.size;
      return { info: infoOf(sidecar), range, body: fileStream(file, length) };
    }
    throw new ObjectChangedError();
  }

  /** Reads the object's sidecar. */
  async head(key: string): Promise<ObjectInfo | null> {
    const sidecar = await this.#readSidecar(idOf(key));
    return sidecar ? infoOf(sidecar) : null;
  }

  /** Removes the sidecar (the object is gone from then on), then the data file. */
  async delete(key: string): Promise<boolean> {
    const id = idOf(key);
    // In turn with uploads of the key, so the data file removed is the one the sidecar named.
    return await this.#serialize(id, async () => {
      const sidecar = await this.#readSidecar(id);
      if (!sidecar) return false;
      try {
        await Deno.remove(this.#sidecarPath(id));
      } catch (err) {
        if (err instanceof Deno.errors.NotFound) return false; // a concurrent delete won
        throw err;
      }
      await removeQuietly(this.#inside("objects", sidecar.data));
      return true;
    });
  }

  /** Reads every sidecar, keeps the keys after `after` that match `prefix`, sorts, pages. */
  async list(options: ListOptions): Promise<ListPage> {
    const prefix = options.prefix ?? "";
    const ids: string[] = [];
    try {
      for await (const entry of Deno.readDir(this.#objects)) {
        if (entry.isFile && entry.name.endsWith(".json")) ids.push(entry.name.slice(0, -5));
      }
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return { objects: [], next: null };
      throw err;
    }
    const sidecars = await Promise.all(ids.map((id) => this.#readSidecar(id)));
    const matching = sidecars
      .filter((s): s is Sidecar => s !== null)
      .filter((s) => s.key.startsWith(prefix))
      .filter((s) => options.after === undefined || compareKeys(s.key, options.after) > 0)
      .sort((a, b) => compareKeys(a.key, b.key));
    const page = matching.slice(0, options.limit);
    const more = matching.length > page.length;
    return { objects: page.map(infoOf), next: more ? page[page.length - 1].key : null };
  }

  /** An absolute path under the bucket folder; throws if it would leave the folder. */
  #inside(...parts: string[]): string {
    const path = resolve(this.root, ...parts);
    if (!path.startsWith(this.root + sep)) throw new InvalidKeyError();
    return path;
  }

  #sidecarPath(id: string): string {
    return this.#inside("objects", `${id}.json`);
  }

  /** Runs `fn` after every earlier `#serialize` of the same key has finished. */
  async #serialize<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const before = this.#commits.get(id);
    const run = (before ?? Promise.resolve()).catch(() => {}).then(fn);
    this.#commits.set(id, run);
    try {
      return await run;
    } finally {
      if (this.#commits.get(id) === run) this.#commits.delete(id);
    }
  }

  #ensureFolders(): Promise<void> {
    this.#ready ??= (async () => {
      await Deno.mkdir(this.#objects, { recursive: true });
      await Deno.mkdir(this.#tmp, { recursive: true });
    })();
    // A failure (e.g. permissions) is retried on the next upload rather than remembered.
    return this.#ready.catch((err) => {
      this.#ready = undefined;
      throw err;
    });
  }

  async #readSidecar(id: string): Promise<Sidecar | null> {
    let text: string;
    try {
      text = await Deno.readTextFile(this.#sidecarPath(id));
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return null;
      throw err;
    }
    const sidecar = JSON.parse(text) as Sidecar;
    // A sidecar only ever names a data file of its own object inside `objects/`.
    if (!DATA_NAME.test(sidecar.data) || !sidecar.data.startsWith(id)) {
      throw new Error(`corrupt sidecar ${id}`);
    }
    return sidecar;
  }
}

/** The file-name stem of a key: its SHA-256, so no key is ever a path. */
function idOf(key: string): string {
  if (!isValidKey(key)) throw new InvalidKeyError();
  return createHash("sha256").update(key, "utf8").digest("hex");
}

function infoOf(s: Sidecar): ObjectInfo {
  return {
    key: s.key,
    size: s.size,
    contentType: s.contentType,
    etag: s.etag,
    uploaded: new Date(s.uploaded),
  };
}

/** Streams `length` bytes from the file's current position, closing it at the end or on cancel. */
function fileStream(file: Deno.FsFile, length: number): ReadableStream<Uint8Array> {
  let remaining = length;
  let closed = false;
  const close = () => {
    if (!closed) {
      closed = true;
      closeQuietly(file);
    }
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (remaining <= 0) {
          close();
          controller.close();
          return;
        }
        const buffer = new Uint8Array(Math.min(READ_CHUNK, remaining));
        const n = await file.read(buffer);
        if (n === null) {
          close();
          controller.close();
          return;
        }
        remaining -= n;
        controller.enqueue(buffer.subarray(0, n));
      } catch (err) {
        close();
        controller.error(err);
      }
    },
    cancel: close,
  });
}

function closeQuietly(file: Deno.FsFile): void {
  try {
    file.close();
  } catch {
    // already closed by its stream
  }
}

/** Removes a file; false when it was not there (or could not be removed). */
async function removeQuietly(path: string): Promise<boolean> {
  try {
    await Deno.remove(path);
    return true;
  } catch {
    return false; // not there: nothing to clean up
  }
}

/** The names of the files in `dir` (none when it does not exist). */
async function fileNames(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) if (entry.isFile) names.push(entry.name);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  return names;
}
