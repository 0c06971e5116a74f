/**
 * In-memory stand-ins for Deno KV and Durable Object storage, so the Deno KV and Durable Object
 * backends run the contract in Node too. They model the semantics the backends rely on (atomic
 * commits with versionstamp checks; transactions rolled back when the closure throws; values
 * copied by structured clone; every call yields to the event loop so concurrent callers
 * interleave). The real engines run the same contract in test/deno/store.test.ts and
 * test/workerd/store.workerd.test.ts.
 */
import type { DenoKvAtomicLike, DenoKvLike, KvEntryMaybeLike, KvKey } from '../../src/store/backends/deno-kv.ts';
import type { DurableObjectStorageLike, DurableObjectStorageOps } from '../../src/store/backends/durable-object.ts';

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function encodeKey(key: KvKey): string {
  return JSON.stringify(key.map((part) => (part instanceof Uint8Array ? { u8: [...part] } : typeof part === 'bigint' ? { n: String(part) } : part)));
}

/** A fake Deno KV with the value-size limit of the real one (64 KiB) enforced. */
export class FakeDenoKv implements DenoKvLike {
  readonly data = new Map<string, { key: KvKey; value: unknown; versionstamp: string }>();
  private clock = 0;
  closed = false;
  /** Counts commits, to let tests fail the n-th one. */
  commits = 0;
  failCommit: ((n: number) => boolean) | undefined;
  /** Applies the n-th commit, then throws as a remote database does when the answer is lost. */
  loseAnswer: ((n: number) => boolean) | undefined;
  /** Commits applied whose answer was then lost, so a test can check its fault fired. */
  lostAnswers = 0;
  /** Makes every get throw while true (a database that stopped answering). */
  failGets = false;
  /** Commits still to refuse the way a KV file locked by another connection does. */
  lockedCommits = 0;

  async get(key: KvKey): Promise<KvEntryMaybeLike> {
    await tick();
    if (this.failGets) throw new TypeError('simulated KV read failure');
    const entry = this.data.get(encodeKey(key));
    return entry === undefined ? { key, value: null, versionstamp: null } : { key, value: structuredClone(entry.value), versionstamp: entry.versionstamp };
  }

  async *list(selector: { prefix: KvKey }): AsyncIterable<{ key: KvKey; value: unknown; versionstamp: string }> {
    await tick();
    const prefix = encodeKey(selector.prefix).slice(0, -1);
    const hits = [...this.data.entries()].filter(([k]) => k.startsWith(`${prefix},`)).sort(([a], [b]) => (a < b ? -1 : 1));
    for (const [, entry] of hits) yield { key: entry.key, value: structuredClone(entry.value), versionstamp: entry.versionstamp };
  }

  atomic(): DenoKvAtomicLike {
    const checks: { key: KvKey; versionstamp: string | null }[] = [];
    const mutations: { key: KvKey; value?: unknown; del: boolean }[] = [];
    const op: DenoKvAtomicLike = {
      check: (...c) => {
        checks.push(...c);
        return op;
      },
      set: (key, value) => {
        mutations.push({ key, value: structuredClone(value), del: false });
        return op;
      },
      delete: (key) => {
        mutations.push({ key, del: true });
        return op;
      },
      commit: async () => {
        await tick();
        this.commits++;
        if (this.failCommit?.(this.commits)) throw new TypeError('simulated KV failure');
        if (this.lockedCommits > 0) {
          this.lockedCommits--;
          throw new TypeError('database is locked');
        }
        for (const m of mutations) {
          if (!m.del && m.value instanceof Uint8Array && m.value.length > 65_536) throw new TypeError('Value too large (max 65536 bytes)');
        }
        // Checks and mutations apply in one synchronous step: atomic.
        for (const c of checks) if ((this.data.get(encodeKey(c.key))?.versionstamp ?? null) !== c.versionstamp) return { ok: false as const };
        const versionstamp = String(++this.clock).padStart(20, '0');
        for (const m of mutations) {
          if (m.del) this.data.delete(encodeKey(m.key));
          else this.data.set(encodeKey(m.key), { key: m.key, value: m.value, versionstamp });
        }
        if (this.loseAnswer?.(this.commits)) {
          this.lostAnswers++;
          throw new TypeError('simulated lost answer (connection reset)');
        }
        return { ok: true as const, versionstamp };
      },
    };
    return op;
  }

  close(): void {
    this.closed = true;
  }
}

/** A fake Durable Object storage whose transactions run one at a time and roll back on throw. */
export class FakeDurableObjectStorage implements DurableObjectStorageLike {
  readonly data = new Map<string, unknown>();
  private queue: Promise<unknown> = Promise.resolve();
  /** Throws from `put` when it returns true, to simulate a storage failure mid-transaction. */
  failPut: ((key: string) => boolean) | undefined;

  async get(key: string): Promise<unknown> {
    await tick();
    return structuredClone(this.data.get(key));
  }

  async put(key: string, value: unknown): Promise<void> {
    await tick();
    if (this.failPut?.(key)) throw new Error('simulated storage failure');
    this.data.set(key, structuredClone(value));
  }

  async delete(key: string): Promise<boolean> {
    await tick();
    return this.data.delete(key);
  }

  async list(options: { prefix: string }): Promise<Map<string, unknown>> {
    await tick();
    const keys = [...this.data.keys()].filter((k) => k.startsWith(options.prefix)).sort();
    return new Map(keys.map((k) => [k, structuredClone(this.data.get(k))]));
  }

  transaction<T>(closure: (txn: DurableObjectStorageOps) => Promise<T>): Promise<T> {
    const run = async (): Promise<T> => {
      const staged = new Map<string, unknown>();
      const deleted = new Set<string>();
      const read = (key: string) => (deleted.has(key) ? undefined : staged.has(key) ? staged.get(key) : this.data.get(key));
      const txn: DurableObjectStorageOps = {
        get: async (key) => {
          await tick();
          return structuredClone(read(key));
        },
        put: async (key, value) => {
          await tick();
          if (this.failPut?.(key)) throw new Error('simulated storage failure');
          deleted.delete(key);
          staged.set(key, structuredClone(value));
        },
        delete: async (key) => {
          await tick();
          const had = read(key) !== undefined;
          staged.delete(key);
          deleted.add(key);
          return had;
        },
        list: async (options) => {
          await tick();
          const keys = new Set([...this.data.keys(), ...staged.keys()]);
          const hits = [...keys].filter((k) => k.startsWith(options.prefix) && read(k) !== undefined).sort();
          return new Map(hits.map((k) => [k, structuredClone(read(k))]));
        },
      };
      const result = await closure(txn);
      for (const key of deleted) this.data.delete(key);
      for (const [key, value] of staged) this.data.set(key, value);
      return result;
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }
}
