import type { LiveChange } from '@liftlink/protocol';
import { clearAlerts } from '../../alerts/repository.ts';
import { bookAvailability } from '../../availability/book.ts';
import type { BatchLifts } from './lift-rows.ts';
import { logPresence, markOfflineAll, type OfflineChange } from './presence-log.ts';
import type { Tx, UplinkMessage, UplinkOf } from './uplink.ts';

export type PresenceUplink = UplinkOf<'presence' | 'disconnect'>;

/**
 * A lift that speaks is alive: one the silence sweep had marked offline comes back online
 * (unless it says so itself in this batch: its online message brings it back, as
 * connected). Its ONLINE entry comes before what it said, and has the time `online_since`
 * gets; the lift row itself is set online with the batch's other changes (`lifts.revived`).
 */
export async function reviveSpeakingLifts(tx: Tx, batch: UplinkMessage[], lifts: BatchLifts, live: LiveChange[]): Promise<void> {
  const speaking = new Set(batch.filter((m) => m.kind !== 'presence' && m.kind !== 'disconnect').map((m) => m.liftId));
  const session = new Map(lifts.locked.map((r) => [r.id, r.presence_session]));
  const reconnecting = new Set(batch.filter((m) => m.kind === 'presence' && m.message.online && m.message.session >= session.get(m.liftId)!).map((m) => m.liftId));
  const revived = lifts.locked.filter((r) => !r.online && speaking.has(r.id) && !reconnecting.has(r.id)).map((r) => r.id);
  for (const id of revived) lifts.revived.add(id);
  if (revived.length) {
    const heard = await logPresence(tx, revived.map((liftId) => ({ liftId, reason: 'messageReceived', at: null })));
    for (const [liftId, n] of heard.lastOrdinal) lifts.eventsTotal.set(liftId, n);
    for (const e of heard.live) live.push({ type: 'presence', liftId: e.liftId, online: true, ts: e.ts }, e);
  }
  await clearAlerts(tx, revived, 'offline');
}

/**
 * Online messages, wills, goodbyes and closed connections, ordered by connection session
 * (the online message before its will). A real transition writes ONLINE or OFFLINE with its
 * reason to the run log; a message of an older session changes nothing.
 */
export async function applyPresence(tx: Tx, messages: PresenceUplink[], live: LiveChange[]): Promise<void> {
  const presence = [...messages].sort(
    (a, b) => (a.kind === 'presence' ? a.message.session : Infinity) - (b.kind === 'presence' ? b.message.session : Infinity) || (a.kind === 'presence' && a.message.online ? -1 : 1),
  );
  const count = new Map<string, number>();
  for (const p of presence) count.set(p.liftId, (count.get(p.liftId) ?? 0) + 1);
  // A lift with one presence message in the batch (the usual case) goes with the others in a few statements.
  const alone = presence.filter((p) => count.get(p.liftId) === 1);
  const handled = new Set([...(await setSimpleOnline(tx, alone, live)), ...(await setSimpleOffline(tx, alone, live))]);
  for (const p of presence) {
    if (handled.has(p)) continue;
    if (p.kind === 'presence' && p.message.online) {
      const rows = await tx.query<{ was_online: boolean }>(
        `update lifts l set online = true, presence_session = $2, online_since = case when l.online then l.online_since else $3::timestamptz end,
                firmware = coalesce($4, l.firmware)
           from lifts before
          where l.id = $1 and before.id = l.id and l.presence_session <= $2 and not (l.online and l.presence_session = $2) returning before.online as was_online`,
        [p.liftId, p.message.session, p.message.ts, p.message.firmware ?? null],
      );
      if (rows.length) {
        live.push({ type: 'presence', liftId: p.liftId, online: true, ts: p.message.ts });
        if (!rows[0]!.was_online) live.push(...(await logPresence(tx, [{ liftId: p.liftId, reason: 'connected', at: p.message.ts }])).live);
        await bookAvailability(tx, [{ liftId: p.liftId, at: p.message.ts }]);
        await clearAlerts(tx, [p.liftId], 'offline');
      }
    } else {
      live.push(...(await markOfflineAll(tx, [offlineChange(p)])));
    }
  }
}

/** What an offline message says: a closed connection, a will or a goodbye. */
function offlineChange(p: PresenceUplink): OfflineChange {
  // The embedded broker saw the connection close while the lift was still online: it did not say goodbye first.
  if (p.kind === 'disconnect') return { liftId: p.liftId, at: p.at, session: null, reason: 'connectionLost' };
  // A will carries the time its connection opened; the lift went offline when it arrived.
  // The will's seq is its session (docs/protocol.md 4.3); a goodbye has a newer seq.
  return { liftId: p.liftId, at: new Date(), session: p.message.session, reason: p.message.seq === p.message.session ? 'connectionLost' : 'cleanDisconnect' };
}

/**
 * Lifts whose one presence message of the batch (`alone`) says they went offline (many at
 * once when a region's lifts lose their network) are marked offline together. Returns the
 * messages handled here.
 */
async function setSimpleOffline(tx: Tx, alone: PresenceUplink[], live: LiveChange[]): Promise<Set<PresenceUplink>> {
  const simpleOffline = alone.filter((p) => p.kind === 'disconnect' || !p.message.online);
  if (simpleOffline.length) live.push(...(await markOfflineAll(tx, simpleOffline.map(offlineChange))));
  return new Set(simpleOffline);
}

/**
 * Lifts whose one presence message of the batch (`alone`) says they are online (all of a
 * fleet reconnecting at once) are set online in one statement for all of them. Returns
 * the messages handled here.
 */
async function setSimpleOnline(tx: Tx, alone: PresenceUplink[], live: LiveChange[]): Promise<Set<PresenceUplink>> {
  const simpleOnline = alone.filter((p): p is UplinkOf<'presence'> => p.kind === 'presence' && p.message.online);
  if (simpleOnline.length) {
    // `before` is the row as it was: only a lift that was offline makes an ONLINE entry (a new
    // session of a lift still online, its old connection's will not in yet, is no transition).
    const rows = await tx.query<{ id: string; was_online: boolean }>(
      `update lifts l set online = true, presence_session = v.session, online_since = case when l.online then l.online_since else v.ts end,
              firmware = coalesce(v.firmware, l.firmware)
         from unnest($1::uuid[], $2::bigint[], $3::timestamptz[], $4::text[]) as v(id, session, ts, firmware), lifts before
        where l.id = v.id and before.id = l.id and l.presence_session <= v.session and not (l.online and l.presence_session = v.session)
        returning l.id, before.online as was_online`,
      [simpleOnline.map((p) => p.liftId), simpleOnline.map((p) => p.message.session), simpleOnline.map((p) => p.message.ts), simpleOnline.map((p) => p.message.firmware ?? null)],
    );
    const changed = new Set(rows.map((r) => r.id));
    const cameOnline = new Set(rows.filter((r) => !r.was_online).map((r) => r.id));
    for (const p of simpleOnline) if (changed.has(p.liftId)) live.push({ type: 'presence', liftId: p.liftId, online: true, ts: p.message.ts });
    const logged = await logPresence(tx, simpleOnline.filter((p) => cameOnline.has(p.liftId)).map((p) => ({ liftId: p.liftId, reason: 'connected', at: p.message.ts })));
    live.push(...logged.live);
    // Back online at the time the lift's online message says (clamped to now).
    await bookAvailability(tx, simpleOnline.filter((p) => cameOnline.has(p.liftId)).map((p) => ({ liftId: p.liftId, at: p.message.ts })));
    if (changed.size) await clearAlerts(tx, [...changed], 'offline');
  }
  return new Set<PresenceUplink>(simpleOnline);
}
