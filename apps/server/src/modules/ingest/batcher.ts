/**
 * Collects accepted uplink messages and stores them in batches: one transaction for up to
 * `maxBatch` messages or whatever arrived within `maxWaitMs`. Each `add` resolves only after
 * the commit that holds its message, so the broker acknowledges the lift after the data is
 * safe. A failed commit is retried with backoff, the messages still held: nothing accepted
 * is lost, and idempotent storage makes a redelivered message harmless.
 */
export interface BatcherOptions<T> {
  store: (batch: T[]) => Promise<void>;
  maxBatch?: number;
  maxWaitMs?: number;
  onError?: (err: unknown, attempt: number) => void;
  /**
   * Whether a failure comes from the data itself (a value the database refuses) rather
   * than from a lost connection. Retrying such a batch would fail forever and hold up
   * every lift behind it, so it is split until the message at fault stands alone.
   */
  isDataError?: (err: unknown) => boolean;
  /** The message that alone failed with a data error: left out, so the rest is stored. */
  onDrop?: (item: T, err: unknown) => void;
  /**
   * Messages a person should see soon (a lift's run-log entry: a fault, a trapped
   * passenger). With more queued than one batch holds, they go in the next batch instead
   * of waiting behind the whole queue; `senderOf` names whose messages they are, and that
   * sender's earlier messages go with them, so each sender's messages are still stored in
   * the order they came.
   */
  priority?: { urgent: (item: T) => boolean; senderOf: (item: T) => string };
}

interface Pending<T> {
  item: T;
  resolve: () => void;
}

export class Batcher<T> {
  private queue: Pending<T>[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private closed = false;
  private closing = false;
  private readonly maxBatch: number;
  private readonly maxWaitMs: number;

  constructor(private readonly opts: BatcherOptions<T>) {
    this.maxBatch = opts.maxBatch ?? 1000;
    this.maxWaitMs = opts.maxWaitMs ?? 5;
  }

  add(item: T): Promise<void> {
    if (this.closed) return Promise.reject(new Error('ingest is closed'));
    return new Promise((resolve) => {
      this.queue.push({ item, resolve });
      if (this.queue.length >= this.maxBatch) this.kick();
      else this.timer ??= setTimeout(() => this.kick(), this.maxWaitMs);
    });
  }

  get pending(): number {
    return this.queue.length;
  }

  private kick(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.flushing || this.queue.length === 0) return;
    this.flushing = this.flushLoop().finally(() => {
      this.flushing = null;
      if (this.queue.length > 0) this.kick();
    });
  }

  private async flushLoop(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.takeBatch();
      if (!(await this.storeAll(batch))) return; // shutting down: the broker redelivers unacknowledged messages
    }
  }

  /**
   * The next batch: the queue's front, or, with a backlog, first the urgent messages with
   * their senders' earlier ones, then the front. Per sender the batch takes a prefix of its
   * queued messages, in order (a sender's taken messages all come before its urgent one,
   * and the front is taken in order after them).
   */
  private takeBatch(): Pending<T>[] {
    const { priority } = this.opts;
    if (!priority || this.queue.length <= this.maxBatch) return this.queue.splice(0, this.maxBatch);
    const { urgent, senderOf } = priority;
    const lastUrgent = new Map<string, number>();
    let lastIndex = -1;
    for (let i = 0; i < this.queue.length; i++) {
      if (!urgent(this.queue[i]!.item)) continue;
      lastUrgent.set(senderOf(this.queue[i]!.item), i);
      lastIndex = i;
    }
    if (lastIndex < this.maxBatch) return this.queue.splice(0, this.maxBatch);
    const batch: Pending<T>[] = [];
    const taken = new Uint8Array(this.queue.length);
    for (let i = 0; i <= lastIndex && batch.length < this.maxBatch; i++) {
      const p = this.queue[i]!;
      if (i > (lastUrgent.get(senderOf(p.item)) ?? -1)) continue;
      batch.push(p);
      taken[i] = 1;
    }
    for (let i = 0; i < this.queue.length && batch.length < this.maxBatch; i++) {
      if (taken[i]) continue;
      batch.push(this.queue[i]!);
      taken[i] = 1;
    }
    this.queue = this.queue.filter((_, i) => !taken[i]);
    return batch;
  }

  /** Stores the batch (retrying while the database is away) and resolves its messages; false when given up at shutdown. */
  private async storeAll(batch: Pending<T>[]): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.opts.store(batch.map((p) => p.item));
        break;
      } catch (err) {
        this.opts.onError?.(err, attempt);
        if (this.opts.isDataError?.(err)) {
          if (batch.length === 1) {
            this.opts.onDrop?.(batch[0]!.item, err);
            break;
          }
          const half = Math.ceil(batch.length / 2);
          return (await this.storeAll(batch.slice(0, half))) && (await this.storeAll(batch.slice(half)));
        }
        if (this.closing && attempt >= 3) return false;
        await new Promise((r) => setTimeout(r, Math.min(100 * 2 ** (attempt - 1), 2_000)));
      }
    }
    for (const p of batch) p.resolve();
    return true;
  }

  /** Stores what is queued, then refuses new messages. */
  async close(): Promise<void> {
    this.closing = true;
    this.kick();
    while (this.flushing) await this.flushing;
    this.closed = true;
  }
}
