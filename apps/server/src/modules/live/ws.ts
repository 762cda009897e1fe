import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { WebSocket } from 'ws';
import { TOKEN_COOKIE, hasPermission, parseLiveClientMessage, type LiveChange, type LiveServerMessage } from '@liftlink/protocol';
import { fleetLiftIds, liveStates, runLogSince, visibleLiftIds } from './repository.ts';
import { leaseMessage } from '../control/lease-service.ts';
import { fleetStatusFrame, wireFrame } from './wire.ts';
import { oneWritePerTurn } from '../../lib/one-write-per-turn.ts';
import type { AuthContext } from '../../types.ts';

const HEARTBEAT_MS = 15_000;
/** The close code of a stopping server (Service Restart): the web client reconnects, to this server restarted or another instance. */
export const LIVE_RESTART_CLOSE = 1012;
/** A socket that has not finished the closing handshake by then is cut. */
const CLOSE_WAIT_MS = 1_000;

/**
 * Registered as @fastify/websocket's preClose: every live socket is closed with 1012 before
 * the HTTP server waits for its connections to end.
 */
export async function closeLiveSockets(this: FastifyInstance): Promise<void> {
  const server = this.websocketServer;
  const sockets = [...server.clients];
  for (const socket of sockets) socket.close(LIVE_RESTART_CLOSE, 'server restart');
  const closed = Promise.all(sockets.filter((s) => s.readyState !== s.CLOSED).map((s) => new Promise((r) => s.once('close', r))));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([closed, new Promise((r) => (timer = setTimeout(r, CLOSE_WAIT_MS)))]);
  clearTimeout(timer);
  for (const socket of sockets) if (socket.readyState !== socket.CLOSED) socket.terminate();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
const REPLAY_LIMIT = 500;

/** How the OpenAPI document describes the socket: an upgrade, then JSON messages both ways. */
const LIVE_SOCKET_SCHEMA = {
  tags: ['live'],
  description:
    'A WebSocket (upgrade this GET). The session is the cookie sent with the upgrade or a first `{ "type": "auth", "token" }` message; then the client subscribes to lifts or to the fleet, and each update the caller may see arrives as a JSON message.',
  response: { 101: { description: 'Switching Protocols: the live socket is open.', content: {} } },
};

/**
 * `GET /ws/live`: live lift updates. The session comes from the HttpOnly cookie sent with
 * the upgrade, or from a first `{type:'auth', token}` message. Each lift id is checked
 * against the caller's organization before anything about it is sent. No state here that
 * another instance would need: a reconnecting client resubscribes with `since` and gets
 * what it missed from the database.
 */
const liveSocket: FastifyPluginAsyncZod = async (app) => {
  const { sql } = app.database;

  const authFromToken = async (token: string | undefined): Promise<AuthContext | null> => (token && token.length <= 200 ? app.sessionFromToken(token, false) : null);


  app.get('/ws/live', { websocket: true, config: { access: 'public' }, schema: LIVE_SOCKET_SCHEMA }, (socket: WebSocket, request) => {
    let auth: AuthContext | null = null;
    const lifts = new Set<string>();
    let fleet: Set<string> | null = null;
    let alive = true;
    // The frames of one turn (a stored batch's changes, a catch-up) leave in one system call.
    const holdTurn = oneWritePerTurn(request.raw.socket);
    const sendText = (data: string | Buffer) => {
      if (socket.readyState !== socket.OPEN) return;
      holdTurn();
      socket.send(data, { binary: false });
    };
    const send = (msg: LiveServerMessage) => sendText(JSON.stringify(msg));
    // The bus's changes go to many sockets: their bytes are made once (wire.ts).
    const sendChange = (msg: LiveChange) => sendText(wireFrame(msg));
    app.metrics.liveClients.inc();

    const stop = app.live.on((msg: LiveChange) => {
      if (!auth) return;
      // An incident notification (escalation) goes to its one recipient only.
      if (msg.type === 'notification') return void (msg.userId === auth.userId && sendChange(msg));
      // Incidents reach only those whose role may see incidents (on the lifts they watch).
      if (msg.type === 'incident' && !hasPermission(auth.permissions, 'incident.query')) return;
      if (lifts.has(msg.liftId)) sendChange(msg);
      else if (fleet?.has(msg.liftId) && (msg.type === 'alert' || msg.type === 'incident' || msg.type === 'presence')) sendChange(msg);
      else if (fleet?.has(msg.liftId) && msg.type === 'status') sendText(fleetStatusFrame(msg));
    });
    const heartbeat = setInterval(() => {
      if (!alive) return socket.terminate();
      alive = false;
      socket.ping();
    }, HEARTBEAT_MS);
    socket.on('pong', () => (alive = true));
    socket.on('close', () => {
      app.metrics.liveClients.dec();
      stop();
      clearInterval(heartbeat);
    });

    const ready = authFromToken(request.cookies[TOKEN_COOKIE]).then((a) => {
      auth = a;
      if (auth) send({ type: 'ready' });
    });

    socket.on('message', (raw: Buffer) => {
      void ready.then(async () => {
        const parsed = parseLiveClientMessage(raw.toString('utf8'));
        if ('error' in parsed) return send({ type: 'error', code: parsed.error });
        const msg = parsed.message;
        if (msg.type === 'ping') return send({ type: 'pong' });
        if (msg.type === 'auth') {
          auth = await authFromToken(msg.token);
          if (!auth) {
            send({ type: 'error', code: 'auth.unauthorized' });
            return socket.close(4401, 'unauthorized');
          }
          return send({ type: 'ready' });
        }
        if (!auth) return send({ type: 'error', code: 'auth.unauthorized' });
        if (!hasPermission(auth.permissions, 'lift.get') && msg.type !== 'subscribeFleet') return send({ type: 'error', code: 'forbidden' });
        if (msg.type === 'unsubscribe') {
          msg.liftIds.forEach((id) => lifts.delete(id));
          return send({ type: 'unsubscribed', liftIds: msg.liftIds });
        }
        if (msg.type === 'subscribeFleet') {
          if (!hasPermission(auth.permissions, 'lift.query')) return send({ type: 'error', code: 'forbidden' });
          fleet = await fleetLiftIds(sql, auth);
          return send({ type: 'fleetSubscribed', count: fleet.size });
        }
        const allowed = await visibleLiftIds(sql, auth, msg.liftIds);
        allowed.forEach((id) => lifts.add(id));
        send({ type: 'subscribed', liftIds: [...allowed], denied: msg.liftIds.filter((id) => !allowed.has(id)) });
        // Catch the client up: the current state, then the run-log entries it has not seen.
        const states = await liveStates(sql, [...allowed]);
        for (const liftId of allowed) {
          const lift = states.get(liftId);
          if (!lift) continue; // deleted since the visibility check
          send({ type: 'presence', liftId, online: lift.online, ts: new Date(lift.last_seen_at ?? 0).toISOString() });
          if (lift.status) send({ type: 'status', liftId, seq: Number(lift.status_seq), ts: new Date(lift.status_at!).toISOString(), status: lift.status });
          // Who controls the lift now (the live `lease` messages follow every change).
          send(leaseMessage(lift.lease));
          const since = msg.since?.[liftId];
          if (since !== undefined) {
            const events = await runLogSince(sql, liftId, since, REPLAY_LIMIT);
            for (const e of events) send({ type: 'event', liftId, id: Number(e.id), seq: Number(e.seq), ts: new Date(e.ts).toISOString(), code: e.code, floor: e.floor, fault: e.fault, reason: e.reason });
          }
        }
      }).catch((err: unknown) => {
        request.log.warn({ err }, 'live socket message failed');
        send({ type: 'error', code: 'internal' });
      });
    });
  });
};

export default liveSocket;
