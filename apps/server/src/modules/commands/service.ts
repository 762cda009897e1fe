import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { APPROVABLE_CLASSES, LEASED_CLASSES, commandClass, isFinalCommandState, liftTopic, refusalText, type CommandClass, type Command, type CommandLease, type CommandResult, type CommandState, type RefusalReason } from '@liftlink/protocol';
import { AppError } from '../../lib/errors.ts';
import { newToken } from '../../lib/crypto.ts';
import type { OwnedLift } from '../lifts/scope.ts';
import { approvalClassesFor, leaseForCommand } from '../control/index.ts';
import { claimCommand, commandByKey, insertCommand, markSent, readCommand, refuseUnclaimed, setCommandState } from './repository.ts';
import { answerOf, answerOfFirst } from './answer.ts';

/** How long a command may wait for its first answer before it is marked 'sent'. */
const SENT_MARK_DELAY_MS = 250;

export type CommandKind = 'cmd' | 'config/set' | 'config/get';

export interface SendOptions {
  kind: CommandKind;
  name: string;
  args: Record<string, unknown>;
  /** The downlink payload without commandId, expiresAt and lease. */
  payload: Record<string, unknown>;
  /** One per click: the same key from the same user again answers with the first command's outcome and sends nothing. */
  idempotencyKey?: string;
  /** On whose behalf the command runs (an approved command runs for its requester); the caller by default. */
  actor?: { userId: string; username: string };
  /** The two-person approval that lets a command of an approval class run (the approvals module). */
  approval?: { id: string; requester: string; approver: string };
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

/** How often a repeated request looks at the first one's record (live messages wake it sooner). */
const REPEAT_POLL_MS = 200;

/**
 * Sends one command to a lift and waits up to COMMAND_WAIT_MS for its answer. An offline
 * lift is refused at once (never queued). The command expires when the wait ends, so a
 * lift that gets it late refuses it as expired rather than moving unexpectedly.
 *
 * Safe remote control (docs/remote-control.md): a command of a class under two-person
 * approval needs `approval`; a leased class runs under the actor's lease (a free one is taken
 * for it), carries it to the lift, and waits its cancel window first; an idempotency key
 * used before answers with that command's outcome.
 */
export function sendCommand(app: FastifyInstance, request: FastifyRequest, lift: OwnedLift, opts: SendOptions): Promise<CommandResult> {
  const flight: Flight = { end: () => {}, over: Promise.resolve() };
  const run = runCommand(app, request, lift, opts, flight);
  flight.over = run.catch(() => {});
  app.commands.inFlight.add(flight);
  return run.finally(() => app.commands.inFlight.delete(flight));
}

/** Waits `ms`, or less when the stopping server ends the flights' waits. */
function waitUnlessEnded(app: FastifyInstance, flight: Flight, ms: number, commandId: string): Promise<void> {
  if (app.commands.ended) return Promise.resolve();
  return new Promise<void>((resolve) => {
    // A cancel (through any instance) ends the wait at once: the sender's page gets its answer
    // and its button back without waiting out the window.
    const stop = app.live.on((msg) => {
      if (msg.type === 'command' && msg.commandId === commandId && msg.state === 'cancelled') done();
    });
    const done = () => {
      clearTimeout(timer);
      stop();
      resolve();
    };
    const timer = setTimeout(done, ms);
    flight.end = done;
  });
}

/** The refusal reason a lease refusal is audited with. */
const LEASE_REASONS: Record<string, RefusalReason> = { 'lease.held': 'leaseHeld', 'lease.lost': 'leaseHeld', 'lease.localControl': 'localControl' };

async function runCommand(app: FastifyInstance, request: FastifyRequest, lift: OwnedLift, opts: SendOptions, flight: Flight): Promise<CommandResult> {
  const { sql } = app.database;
  const started = performance.now();
  const observe = (outcome: string) => app.metrics.commandRoundTrip.labels(opts.kind, outcome).observe((performance.now() - started) / 1000);
  const auth = request.auth!;
  const actor = opts.actor ?? { userId: auth.userId, username: auth.username };
  const lang = auth.language;
  const cls: CommandClass | null = opts.kind === 'cmd' ? commandClass({ name: opts.name, args: opts.args } as Command) : null;
  let lease: CommandLease | null = null;
  const audit = (state: CommandState, reason: string | null) =>
    app.audit({
      action: `lift.${opts.kind === 'cmd' ? 'command' : opts.kind === 'config/set' ? 'configure' : 'readConfig'}`,
      result: state,
      userId: actor.userId,
      username: actor.username,
      ip: request.ip,
      liftId: lift.id,
      targetType: 'lift',
      targetId: lift.device_no ?? lift.id,
      detail: { name: opts.name, args: opts.args, reason, ...(lease ? { lease: lease.epoch } : {}), ...(opts.approval ? { approval: opts.approval } : {}) },
    });

  const click = opts.idempotencyKey ? { liftId: lift.id, userId: actor.userId, key: opts.idempotencyKey, kind: opts.kind, name: opts.name, args: opts.args } : null;
  const repeatWaitMs = app.config.commandCancelWindowMs + app.config.commandWaitMs + REPEAT_POLL_MS * 10;
  // A click seen before answers with its command whatever changed since (the lease, the lift's
  // presence). A shortcut only: the insert below decides when both arrive at once.
  if (click && (await commandByKey(sql, click.userId, click.key, click))) return answerOfFirst(app, click, lang, flight, repeatWaitMs);
  if (!lift.device_no) throw new AppError('lift.noDeviceNo');
  if (!lift.online) {
    observe('offline');
    await audit('failed', 'offline');
    throw new AppError('lift.offline', { commandId: null, state: 'failed', reason: 'offline', reasonText: refusalText('offline', lang) });
  }
  // The server is stopping: nothing new goes out (the caller may try again on the restarted server).
  if (app.commands.stopping) throw new AppError('lift.sendFailed');
  if (cls && APPROVABLE_CLASSES.includes(cls) && !opts.approval && (await approvalClassesFor(sql, lift)).includes(cls)) {
    await audit('rejected', 'approvalRequired');
    throw new AppError('approval.required', { commandClass: cls });
  }
  const leased = cls !== null && LEASED_CLASSES.includes(cls);
  if (leased) {
    try {
      lease = await leaseForCommand(app, { ...actor, ip: request.ip }, lift.id, !opts.approval);
    } catch (err) {
      if (err instanceof AppError && LEASE_REASONS[err.code]) await audit('rejected', LEASE_REASONS[err.code]!);
      throw err;
    }
  }
  // An approved command runs at once (docs: "On approval the command runs at once"); a direct one waits its cancel window.
  const windowMs = leased && !opts.approval ? app.config.commandCancelWindowMs : 0;
  const commandId = newToken().slice(0, 22);
  let expiresAt = new Date(Date.now() + windowMs + app.config.commandWaitMs);
  const created = await insertCommand(sql, {
    id: commandId,
    liftId: lift.id,
    kind: opts.kind,
    name: opts.name,
    args: opts.args,
    userId: actor.userId,
    username: actor.username,
    expiresAt,
    idempotencyKey: opts.idempotencyKey ?? null,
    leaseEpoch: lease?.epoch ?? null,
    approvalId: opts.approval?.id ?? null,
    sentNow: windowMs === 0,
  });
  if (!created) return answerOfFirst(app, click!, lang, flight, repeatWaitMs);

  let latest: { state: CommandState; reason: RefusalReason | null } = { state: 'created', reason: null };
  if (windowMs > 0) {
    // The cancel window: the sender may still cancel (command/cancel, on any instance).
    await waitUnlessEnded(app, flight, windowMs, commandId);
    if (app.commands.stopping && (await setCommandState(sql, commandId, 'expired', 'timeout', ['created']))) {
      // Stopping: it never leaves the cloud, and ends as an unanswered command would.
      observe('expired');
      await audit('expired', 'timeout');
      return answerOf({ commandId, state: 'expired', reason: 'timeout', issues: null }, lang);
    }
    expiresAt = new Date(Date.now() + app.config.commandWaitMs);
    if (!(await claimCommand(sql, commandId, expiresAt))) {
      const refused = (await refuseUnclaimed(sql, commandId)) ?? { state: 'cancelled' as const, reason: 'cancelled' as const };
      observe(refused.state);
      await audit(refused.state, refused.reason);
      return answerOf({ commandId, state: refused.state, reason: refused.reason, issues: null }, lang);
    }
    latest = { state: 'sent', reason: null };
  }

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
      const payload = { commandId, ...opts.payload, ...(opts.kind === 'config/get' ? {} : { expiresAt: expiresAt.toISOString() }), ...(lease ? { lease } : {}) };
      // No broker hands it out after the wait ends (app.publishCommand); the lift checks expiresAt too.
      await app.publishCommand(liftTopic(lift.device_no, opts.kind), JSON.stringify(payload), expiresAt);
    } catch {
      await setCommandState(sql, commandId, 'failed', 'offline', ['created', 'sent']);
      observe('sendFailed');
      await audit('failed', 'sendFailed');
      throw new AppError('lift.sendFailed');
    }
    // 'sent' matters only for a command still waiting: most answers come within a few
    // milliseconds and move it on from 'created' themselves, so the mark is written only
    // when none came quickly (one statement less per command on the embedded database,
    // which runs them one at a time).
    let marked: Promise<unknown> = Promise.resolve();
    const markSentSoon = setTimeout(() => {
      if (latest.state === 'created') marked = markSent(sql, commandId);
    }, SENT_MARK_DELAY_MS);
    await finished;
    clearTimeout(markSentSoon);
    await marked;
  } finally {
    clearTimeout(timer);
    stop();
  }

  // The live stream may have missed an answer (another instance, a reconnect): the database is
  // the truth, unless the stream brought the final 'done' (only refusals carry issues).
  const row = latest.state === 'done' ? { ...latest, issues: null } : (await readCommand(sql, commandId))!;
  latest = { state: row.state, reason: row.reason };
  if (latest.state === 'created' || latest.state === 'sent') {
    // Unanswered: 'timeout' when the wait ran out, 'expired' when the server stopped first.
    const state = app.commands.stopping ? 'expired' : 'timeout';
    if (await setCommandState(sql, commandId, state, 'timeout', ['created', 'sent'])) latest = { state, reason: 'timeout' };
  }
  observe(latest.state);
  await audit(latest.state, latest.reason);
  return answerOf({ commandId, state: latest.state, reason: latest.reason, issues: row.issues }, lang);
}
