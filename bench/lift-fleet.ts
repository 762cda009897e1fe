/**
 * The benchmark's lifts: bare MQTT connections (bench/raw-lift.ts) in a process of their
 * own (so the measuring process stays responsive), driven over IPC by bench/run.ts. Each lift speaks
 * the device protocol just enough: presence and a status on connect, events on demand, a
 * status every few seconds on demand (a fleet in service), and it answers every command at
 * once with `accepted` then `done`.
 */
import { RawLift } from './raw-lift.ts';
import { liftTopic } from '@liftlink/protocol';

export interface FleetLift {
  deviceNo: string;
  secret: string;
  /** The node this lift connects to (a clustered broker's); else the request's `url`. */
  url?: string;
}

export type FleetRequest =
  | { op: 'connect'; url: string; lifts: FleetLift[]; status: unknown }
  /** `code` defaults to RZGU (a trip, the costliest event to store). */
  | { op: 'ingest'; lifts: number; perLift: number; window: number; firstSeq: number; code?: string }
  | { op: 'push'; lifts: number; everyMs: number; durationMs: number; firstSeq: number }
  /** Every connected lift reports its status every `everyMs` from now on (phases spread evenly), until `reportStop`. */
  | { op: 'report'; everyMs: number }
  /** Ends the reports; answers how many were sent, acknowledged and failed, and over how long. */
  | { op: 'reportStop' }
  /** The lifts whose connection ended since they connected (the broker closed it, or it died). */
  | { op: 'closed' }
  | { op: 'stop' };

export type FleetReply = { op: string; ok: true; [k: string]: unknown } | { op: string; ok: false; error: string };

const clients: { lift: FleetLift; client: RawLift; seq: number; closedAt?: number }[] = [];
const BOOT = Date.now() * 1000;

function answerCommands(entry: (typeof clients)[number]): void {
  entry.client.onMessage = (_topic, payload) => {
    let commandId: string;
    try {
      commandId = (JSON.parse(payload.toString()) as { commandId: string }).commandId;
    } catch {
      return;
    }
    const ack = (state: string) =>
      entry.client.publish(liftTopic(entry.lift.deviceNo, 'cmd/ack'), JSON.stringify({ seq: BOOT + ++entry.seq, ts: new Date().toISOString(), commandId, state }), 1);
    ack('accepted');
    ack('done');
  };
}

async function connect(url: string, lifts: FleetLift[], status: unknown): Promise<number> {
  const started = Date.now();
  const batch = 500;
  // The lifts keep the request's order, not the order their CONNACKs came in: `ingest` and
  // `push` take the first n, and the benchmark watches and counts exactly those lifts (with a
  // cluster the CONNACKs of a batch come back shuffled).
  const base = clients.length;
  for (let i = 0; i < lifts.length; i += batch) {
    await Promise.all(
      lifts.slice(i, i + batch).map(async (lift, j) => {
        const client = await RawLift.connect(lift.url ?? url, { clientId: lift.deviceNo, username: lift.deviceNo, password: lift.secret, keepaliveSeconds: 120 });
        const entry: (typeof clients)[number] = { lift, client, seq: 0 };
        client.onClose = () => (entry.closedAt = Date.now());
        clients[base + i + j] = entry;
        answerCommands(entry);
        const session = BOOT + ++entry.seq;
        // Pipelined, as a lift does after CONNACK: subscribe, presence, first status.
        await Promise.all([
          client.subscribe(liftTopic(lift.deviceNo, 'cmd'), 1),
          client.publishAsync(liftTopic(lift.deviceNo, 'presence'), JSON.stringify({ seq: session, ts: new Date().toISOString(), online: true, session, firmware: 'BENCH-1' }), 1, true),
          client.publishAsync(liftTopic(lift.deviceNo, 'status'), JSON.stringify({ seq: BOOT + ++entry.seq, ts: new Date().toISOString(), status }), 1),
        ]);
      }),
    );
  }
  return Date.now() - started;
}

/** Every lift keeps `window` events in flight until it has sent `perLift`; resolves when all are acknowledged. */
async function ingest(n: number, perLift: number, window: number, firstSeq: number, code = 'RZGU'): Promise<{ ms: number; acked: number; failed: number }> {
  const started = Date.now();
  let acked = 0;
  let failed = 0;
  await Promise.all(
    clients.slice(0, n).map(
      (entry) =>
        new Promise<void>((resolve) => {
          let sent = 0;
          let done = 0;
          const topic = liftTopic(entry.lift.deviceNo, 'event');
          const next = () => {
            if (sent >= perLift) return;
            const seq = firstSeq + sent++;
            entry.client.publish(topic, `{"seq":${seq},"ts":"${new Date().toISOString()}","code":"${code}"}`, 1, (err) => {
              if (err) failed++;
              else acked++;
              if (++done === perLift) resolve();
              else next();
            });
          };
          for (let i = 0; i < Math.min(window, perLift); i++) next();
        }),
    ),
  );
  return { ms: Date.now() - started, acked, failed };
}

/**
 * A few lifts report events at a steady pace; the event's `ts` is its send time, for the
 * browser's latency. Also says, per lift, how many the broker acknowledged (waiting up to
 * 5 s after the last) and whether its connection ended: a lift whose events never arrive
 * was cut off or blocked, or the broker lost what it acknowledged.
 */
async function push(n: number, everyMs: number, durationMs: number, firstSeq: number): Promise<{ sent: number; acked: number; failed: number; deviceNos: string[]; unacked: { deviceNo: string; sent: number; acked: number; failed: number; closedAt?: number }[] }> {
  let sent = 0;
  let seq = firstSeq;
  const pushing = clients.slice(0, n).map((entry) => ({ entry, sent: 0, acked: 0, failed: 0 }));
  const timer = setInterval(() => {
    seq++;
    for (const p of pushing) {
      p.entry.client.publish(liftTopic(p.entry.lift.deviceNo, 'event'), JSON.stringify({ seq, ts: new Date().toISOString(), code: 'RZD1', floor: 1 }), 1, (err) => (err ? p.failed++ : p.acked++));
      p.sent++;
      sent++;
    }
  }, everyMs);
  await new Promise((r) => setTimeout(r, durationMs));
  clearInterval(timer);
  const settled = () => pushing.every((p) => p.acked + p.failed >= p.sent);
  for (const end = Date.now() + 5_000; !settled() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 50));
  const sum = (k: 'acked' | 'failed') => pushing.reduce((t, p) => t + p[k], 0);
  const unacked = pushing.filter((p) => p.acked < p.sent).map((p) => ({ deviceNo: p.entry.lift.deviceNo, sent: p.sent, acked: p.acked, failed: p.failed, closedAt: p.entry.closedAt }));
  return { sent, acked: sum('acked'), failed: sum('failed'), deviceNos: pushing.map((p) => p.entry.lift.deviceNo), unacked };
}

/** The status each lift sends on connecting, and again with every periodic report. */
let statusSnapshot: unknown = null;
let reporting: { timer: NodeJS.Timeout; started: number; sent: number; acked: number; failed: number } | null = null;
const REPORT_TICK_MS = 100;

/** Status reports as a fleet in service sends them: each lift once per period, the lifts spread over it. */
function startReports(everyMs: number): void {
  if (reporting) clearInterval(reporting.timer);
  const buckets = Math.max(1, Math.round(everyMs / REPORT_TICK_MS));
  const r = { started: Date.now(), sent: 0, acked: 0, failed: 0, timer: undefined as unknown as NodeJS.Timeout };
  let tick = 0;
  r.timer = setInterval(() => {
    const bucket = tick++ % buckets;
    for (let i = bucket; i < clients.length; i += buckets) {
      const entry = clients[i];
      if (!entry?.client.connected) continue;
      r.sent++;
      const payload = JSON.stringify({ seq: BOOT + ++entry.seq, ts: new Date().toISOString(), status: statusSnapshot });
      entry.client.publish(liftTopic(entry.lift.deviceNo, 'status'), payload, 1, (err) => (err ? r.failed++ : r.acked++));
    }
  }, REPORT_TICK_MS);
  reporting = r;
}

async function stopReports(): Promise<{ ms: number; sent: number; acked: number; failed: number }> {
  const r = reporting;
  if (!r) return { ms: 0, sent: 0, acked: 0, failed: 0 };
  clearInterval(r.timer);
  reporting = null;
  const ms = Date.now() - r.started;
  for (const end = Date.now() + 10_000; r.acked + r.failed < r.sent && Date.now() < end; ) await new Promise((res) => setTimeout(res, 50));
  return { ms, sent: r.sent, acked: r.acked, failed: r.failed };
}

process.on('message', (msg: FleetRequest) => {
  const reply = (r: FleetReply) => process.send!(r);
  const run = async (): Promise<Record<string, unknown>> => {
    switch (msg.op) {
      case 'connect':
        statusSnapshot = msg.status;
        return { ms: await connect(msg.url, msg.lifts, msg.status), connected: clients.filter((c) => c.client.connected).length };
      case 'report':
        startReports(msg.everyMs);
        return {};
      case 'reportStop':
        return stopReports();
      case 'ingest':
        return ingest(msg.lifts, msg.perLift, msg.window, msg.firstSeq, msg.code);
      case 'push':
        return push(msg.lifts, msg.everyMs, msg.durationMs, msg.firstSeq);
      case 'closed':
        return { closed: clients.filter((c) => c.closedAt !== undefined).map((c) => ({ deviceNo: c.lift.deviceNo, at: c.closedAt })) };
      case 'stop':
        if (reporting) clearInterval(reporting.timer);
        reporting = null;
        for (const c of clients) c.client.destroy();
        clients.length = 0;
        return {};
    }
  };
  run().then(
    (result) => reply({ op: msg.op, ok: true, ...result }),
    (err: unknown) => reply({ op: msg.op, ok: false, error: err instanceof Error ? err.message : String(err) }),
  );
});
process.send!({ op: 'hello', ok: true });
