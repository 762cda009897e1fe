import mqtt, { type MqttClient } from 'mqtt';
import { brokerConnection, liftTopic } from '@liftlink/protocol';
import type { SqlExecutor } from '../../src/db/client.ts';
import type { ProvisionedLift } from './fleet.ts';
import { until } from './ports.ts';

/**
 * Lifts publishing run-log events steadily (QoS 1, persistent sessions, reconnecting), as a
 * fleet does through an outage. An event counts as accepted once the broker acknowledged it;
 * MQTT.js keeps unacknowledged ones and sends them again after reconnecting.
 */
export class EventStream {
  readonly accepted = new Map<string, Set<number>>();
  private readonly clients: MqttClient[] = [];
  private timer: NodeJS.Timeout | null = null;
  private seq: number;
  private readonly firstSeq: number;
  private inFlight = 0;

  constructor(
    private readonly url: string,
    private readonly lifts: ProvisionedLift[],
    firstSeq: number,
    private readonly reconnectMs = 2_000,
  ) {
    this.seq = firstSeq;
    this.firstSeq = firstSeq;
    for (const l of lifts) this.accepted.set(l.id, new Set());
  }

  async connect(): Promise<this> {
    // One broker, or a cluster's nodes: MQTT.js tries the next one at each reconnection.
    const { url, servers } = brokerConnection(this.url);
    for (const l of this.lifts) {
      this.clients.push(await mqtt.connectAsync(url, { ...(servers ? { servers } : {}), clientId: l.deviceNo, username: l.deviceNo, password: l.secret, clean: false, reconnectPeriod: this.reconnectMs, connectTimeout: 3_000 }));
    }
    return this;
  }

  /** Every `everyMs`, each lift publishes one event (a trip start, so a double store would double its trip count). */
  start(everyMs = 10): void {
    this.timer = setInterval(() => {
      const seq = ++this.seq;
      this.lifts.forEach((l, i) => {
        this.inFlight++;
        this.clients[i]!.publish(liftTopic(l.deviceNo, 'event'), JSON.stringify({ seq, ts: new Date().toISOString(), code: 'RZGU' }), { qos: 1 }, (err) => {
          this.inFlight--;
          if (!err) this.accepted.get(l.id)!.add(seq);
        });
      });
    }, everyMs);
  }

  /** Stops publishing and waits until the broker has acknowledged everything sent. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await until('publishes acknowledged', () => this.inFlight === 0, 60_000, 50);
  }

  get acceptedCount(): number {
    return [...this.accepted.values()].reduce((n, s) => n + s.size, 0);
  }

  async close(): Promise<void> {
    await Promise.all(this.clients.map((c) => c.endAsync(true).catch(() => {})));
  }

  /**
   * Waits until every accepted event is stored, then returns what differs from "each exactly
   * once": events missing, events stored that were never accepted, and lifts whose trip
   * count (bumped once per stored trip event) disagrees with their stored events.
   */
  async verify(sql: SqlExecutor): Promise<{ accepted: number; missing: number; unexpected: number; tripMismatch: string[] }> {
    const ids = [...this.accepted.keys()];
    const storedNow = async () => {
      const rows = await sql.query<{ lift_id: string; seq: string }>('select lift_id, seq from lift_events where lift_id = any($1::uuid[]) and seq > $2', [ids, this.firstSeq]);
      return rows;
    };
    let rows = await storedNow();
    const want = this.acceptedCount;
    await until('accepted events stored', async () => (rows = await storedNow()).filter((r) => this.accepted.get(r.lift_id)!.has(Number(r.seq))).length >= want, 60_000, 250).catch(() => {});
    const stored = new Map(ids.map((id) => [id, new Set<number>()]));
    for (const r of rows) stored.get(r.lift_id)!.add(Number(r.seq));
    let missing = 0;
    let unexpected = 0;
    for (const id of ids) {
      for (const s of this.accepted.get(id)!) if (!stored.get(id)!.has(s)) missing++;
      for (const s of stored.get(id)!) if (!this.accepted.get(id)!.has(s)) unexpected++;
    }
    // The lift's own entries: the cloud's ONLINE / OFFLINE entries (seq < 0) are no trips.
    const trips = await sql.query<{ id: string; trips_total: string; events: string }>(
      'select l.id, l.trips_total, (select count(*) from lift_events e where e.lift_id = l.id and e.seq > 0) as events from lifts l where l.id = any($1::uuid[])',
      [ids],
    );
    return { accepted: want, missing, unexpected, tripMismatch: trips.filter((t) => t.trips_total !== t.events).map((t) => `${t.id}: ${t.trips_total} trips, ${t.events} events`) };
  }
}
