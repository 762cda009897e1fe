import type { FastifyInstance, FastifyRequest } from 'fastify';
import { refusalText, type CommandResult } from '@liftlink/protocol';
import { AppError } from '../../lib/errors.ts';
import type { OwnedLift } from '../lifts/scope.ts';
import { cancelByKey } from './repository.ts';

/** How long a cancel looks for its command: the page knows the click's key before the command's record exists. */
const FIND_TRIES = 10;
const FIND_PAUSE_MS = 100;

/**
 * `command/cancel`: the caller's command of that click, cancelled while it waits in its
 * cancel window (docs/remote-control.md). The send and the cancel race on one row, so exactly
 * one wins, on any instance; the sender's waiting request then answers `cancelled`.
 */
export async function cancelCommand(app: FastifyInstance, request: FastifyRequest, lift: OwnedLift, key: string): Promise<CommandResult> {
  const auth = request.auth!;
  const { sql } = app.database;
  let found = await cancelByKey(sql, lift.id, auth.userId, key);
  for (let i = 0; !found && i < FIND_TRIES; i++) {
    await new Promise((r) => setTimeout(r, FIND_PAUSE_MS));
    found = await cancelByKey(sql, lift.id, auth.userId, key);
  }
  if (!found) throw new AppError('command.notFound');
  const entry = { action: 'lift.commandCancel', userId: auth.userId, username: auth.username, ip: request.ip, liftId: lift.id, targetType: 'lift', targetId: lift.device_no ?? lift.id } as const;
  const detail = { name: found.name, args: found.args, commandId: found.id };
  if (!found.cancelled) {
    await app.audit({ ...entry, result: 'refused', detail: { ...detail, reason: 'command.cancelTooLate' } });
    throw new AppError('command.cancelTooLate', { commandId: found.id });
  }
  await app.live.publish([{ type: 'command', liftId: lift.id, commandId: found.id, name: found.name, state: 'cancelled', reason: 'cancelled' }]);
  await app.audit({ ...entry, result: 'ok', detail });
  return { commandId: found.id, state: 'cancelled', reason: 'cancelled', reasonText: refusalText('cancelled', auth.language) };
}
