import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isFinalCommandState, liftTopic, refusalText, type CommandResult, type CommandState, type RefusalReason } from '@liftlink/protocol';
import { AppError } from '../../lib/errors.ts';
import { newToken } from '../../lib/crypto.ts';
import type { OwnedLift } from '../lifts/scope.ts';

/** How long a command may wait for its first answer before it is marked 'sent'. */
const SENT_MARK_DELAY_MS = 250;

export type CommandKind = 'cmd' | 'config/set' | 'config/get';

interface SendOptions {
  kind: CommandKind;
  name: string;
  args: Record<string, unknown>;
  /** The downlink payload without commandId and expiresAt. */
  payload: Record<string, unknown>;
}

/** How long a stopping server waits for the lifts to answer the commands in flight before it ends their wait. */
const STOP_GRACE_MS = 1_500;

interface Flight {
  /** Ends the wait for the lift's answer now. */
  end: () => void;
  /** Settles when the caller has its answer and the record its final state. */
  over: Promise<unknown>;
}

declare module 'fastify' {
  interface FastifyInstance {
    commands: { stopping: boolean; ended: boolean; inFlight: Set<Flight> };
  }
}

/**
 * Commands at shutdown: no new ones are sent; those in flight get a moment for their
 * answers (ingest still runs), then their wait ends: each caller gets an answer and each
 * record a final state ('expired' when the lift never answered), none is left 'sent'.
 */
export const commandsPlugin = fp(
  async (app) => {
    const commands: FastifyInstance['commands'] = { stopping: false, ended: false, inFlight: new Set() };
    app.decorate('commands', commands);
    // preClose: before the HTTP server waits for its requests to end (those of commands included).
    app.addHook('preClose', async () => {
      commands.stopping = true;
      const all = () => Promise.allSettled([...commands.inFlight].map((f) => f.over));
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([all(), new Promise((r) => (timer = setTimeout(r, STOP_GRACE_MS)))]);
      clearTimeout(timer);
      commands.ended = true;
      for (const flight of commands.inFlight) flight.end();
      await all();
    });
  },
  { name: 'commands' },
);

/**
 * Sends one command to a lift and waits up to COMMAND_WAIT_MS for its answer. An offline
 * lift is refused at once (never queued). The command expires when the wait ends, so a
 * lift that gets it late refuses it as expired rather than moving unexpectedly.
 */
export function sendCommand(app: FastifyInstance, request: FastifyRequest, lift: OwnedLift, opts: SendOptions): Promise<CommandResult> {
  const flight: Flight = { end: () => {}, over: Promise.resolve() };
  const run = runCommand(app, request, lift, opts, flight);
  flight.over = run.catch(() => {});
  app.commands.inFlight.add(flight);
  return run.finally(() => app.commands.inFlight.delete(flight));
}

async function runCommand(app: FastifyInstance, request: FastifyRequest, lift: OwnedLift, opts: SendOptions, flight: Flight): Promise<CommandResult> {
  const { sql } = app.database;
  const started = performance.now();
  const observe = (outcome: string) => app.metrics.commandRoundTrip.labels(opts.kind, outcome).observe((performance.now() - started) / 1000);
  const auth = request.auth!;
  const audit = (state: CommandState, reason: string | null) =>
    app.audit({ action: `lift.${opts.kind === 'cmd' ? 'command' : opts.kind === 'config/set' ? 'configure' : 'readConfig'}`, result: state, userId: auth.userId, username: auth.username, ip: request.ip, liftId: lift.id, targetType: 'lift', targetId: lift.device_no ?? lift.id, detail: { name: opts.name, args: opts.args, reason } });

  if (!lift.device_no) throw new AppError('lift.noDeviceNo');
  if (!lift.online) {
    observe('offline');
    await audit('failed', 'offline');
    throw new AppError('lift.offline', { commandId: null, state: 'failed', reason: 'offline', reasonText: refusalText('offline', auth.language) });
  }
  // The server is stopping: nothing new goes out (the caller may try again on the restarted server).
  if (app.commands.stopping) throw new AppError('lift.sendFailed');
  const commandId = newToken().slice(0, 22);
  const expiresAt = new Date(Date.now() + app.config.commandWaitMs);
  await sql.query(
    `insert into lift_commands (id, lift_id, kind, name, args, state, user_id, username, expires_at) values ($1, $2, $3, $4, $5::jsonb, 'created', $6, $7, $8)`,
    [commandId, lift.id, opts.kind, opts.name, JSON.stringify(opts.args), auth.userId, auth.username, expiresAt],
  );

  let latest: { state: CommandState; reason: RefusalReason | null } = { state: 'created', reason: null };
  let finish: () => void = () => {};
  const finished = new Promise<void>((resolve) => (finish = resolve));
  flight.end = () => finish();
  // Registered after the grace ended (a very slow insert): no wait at all.
  if (app.commands.ended) finish();
  const stop = app.live.on((msg) => {
    if (msg.type !== 'command' || msg.commandId !== commandId) return;
    latest = { state: msg.state, reason: msg.reason };
    if (isFinalCommandState(msg.state)) finish();
  });
  const timer = setTimeout(finish, app.config.commandWaitMs);
  try {
    try {
      await app.mqtt.publishAsync(liftTopic(lift.device_no, opts.kind), JSON.stringify({ commandId, ...opts.payload, ...(opts.kind === 'config/get' ? {} : { expiresAt: expiresAt.toISOString() }) }), { qos: 1 });
    } catch {
      await sql.query(`update lift_commands set state = 'failed', reason = 'offline', updated_at = now() where id = $1`, [commandId]);
      observe('sendFailed');
      await audit('failed', 'sendFailed');
      throw new AppError('lift.sendFailed');
    }
    // 'sent' matters only for a command still waiting: most answers come within a few
    // milliseconds and move it on from 'created' themselves, so the mark is written only
    // when none came quickly (one statement less per command on the embedded database,
    // which runs them one at a time).
    let marked: Promise<unknown> = Promise.resolve();
    const markSent = setTimeout(() => {
      if (latest.state === 'created') marked = sql.query(`update lift_commands set state = 'sent', updated_at = now() where id = $1 and state = 'created'`, [commandId]);
    }, SENT_MARK_DELAY_MS);
    await finished;
    clearTimeout(markSent);
    await marked;
  } finally {
    clearTimeout(timer);
    stop();
  }

  // The live stream may have missed an answer (another instance, a reconnect): the database is
  // the truth, unless the stream brought the final 'done' (only refusals carry issues).
  const [row] =
    latest.state === 'done'
      ? [{ ...latest, issues: null }]
      : await sql.query<{ state: CommandState; reason: RefusalReason | null; issues: CommandResult['issues'] | null }>(`select state, reason, issues from lift_commands where id = $1`, [commandId]);
  latest = { state: row!.state, reason: row!.reason };
  if (latest.state === 'created' || latest.state === 'sent') {
    // Unanswered: 'timeout' when the wait ran out, 'expired' when the server stopped first.
    const state = app.commands.stopping ? 'expired' : 'timeout';
    const [timedOut] = await sql.query(`update lift_commands set state = $2, reason = 'timeout', updated_at = now() where id = $1 and state in ('created', 'sent') returning id`, [commandId, state]);
    if (timedOut) latest = { state, reason: 'timeout' };
  }
  observe(latest.state);
  await audit(latest.state, latest.reason);
  const lang = auth.language;
  const result: CommandResult = { commandId, state: latest.state, reason: latest.reason, reasonText: latest.reason ? refusalText(latest.reason, lang) : null, ...(row?.issues ? { issues: row.issues } : {}) };
  if (latest.state === 'timeout') throw new AppError('lift.timeout', result);
  if (latest.state === 'rejected' || latest.state === 'failed' || latest.state === 'expired') throw new AppError('lift.refused', result, result.reasonText ?? undefined);
  return result;
}
