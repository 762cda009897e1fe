/**
 * Acknowledges an AMQP channel's deliveries in as few frames as their order allows.
 *
 * Every basic.ack to a quorum queue is a settle command in the queue's Raft log, replicated
 * to every node. A stored ingest batch finishes hundreds of deliveries in one tick; acked
 * one by one that was as many log entries as messages (as many as their enqueues). Here the
 * deliveries finished in the same tick are acknowledged together: the longest run of
 * finished tags from the oldest unacknowledged one with a single `multiple` ack, and the
 * finished tags behind an unfinished one each on their own, since `multiple` would also
 * acknowledge the unfinished one (a message that was never stored, which the broker must
 * deliver again).
 */
export class AckCoalescer {
  /** Delivery tags taken and not yet acknowledged, oldest first (a channel numbers them upwards). */
  private outstanding: number[] = [];
  private finished = new Set<number>();
  private scheduled = false;

  constructor(
    private readonly send: (tag: number, allUpTo: boolean) => void,
    private readonly schedule: (flush: () => void) => void = (flush) => void setImmediate(flush),
  ) {}

  delivered(tag: number): void {
    this.outstanding.push(tag);
  }

  /** The message with this tag is stored: it is acknowledged with the others finished in this tick. */
  finish(tag: number): void {
    this.finished.add(tag);
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => this.flush());
  }

  /** Deliveries taken and not yet acknowledged. */
  get unacknowledged(): number {
    return this.outstanding.length;
  }

  /** Sends what is finished now (also run by the scheduled flush): before the channel is closed. */
  flush(): void {
    this.scheduled = false;
    let run = 0;
    while (run < this.outstanding.length && this.finished.has(this.outstanding[run]!)) run++;
    if (run > 0) this.send(this.outstanding[run - 1]!, run > 1);
    for (const tag of this.outstanding.slice(0, run)) this.finished.delete(tag);
    for (const tag of this.finished) this.send(tag, false);
    this.outstanding = this.outstanding.slice(run).filter((tag) => !this.finished.has(tag));
    this.finished.clear();
  }
}
