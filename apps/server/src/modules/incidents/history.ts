import { appendLogbook, type Tx } from '../logbook/append.ts';
import { moveIncidentOpening } from '../availability/book.ts';
import { ACTIVE_SQL, addStep, type Actor } from './repository.ts';

/**
 * Ends, as history, the incident a past fault opened when a backfill (the demo lifts' month,
 * modules/lifts/demo-history.ts) stored it: opened at the fault's time, cancelled when the
 * lift's restart cleared the fault, with the step and the logbook entry saying so. Without
 * this every historic fault would leave an incident active for ever, and a new fault of the
 * same code would only count as its repeat.
 */
export async function endHistoricIncident(tx: Tx, liftId: string, code: string, at: { opened: Date; ended: Date }, actor: Actor, note: string): Promise<void> {
  const [row] = await tx.query<{ id: string; state: string }>(
    `update incidents set state = 'cancelled', opened_at = $3, state_changed_at = $4, ended_at = $4
      where lift_id = $1 and cause = 'fault' and code = $2 and state in ${ACTIVE_SQL} returning id, state`,
    [liftId, code, at.opened, at.ended],
  );
  if (!row) return;
  await moveIncidentOpening(tx, liftId, at.opened); // counted in the month it was opened
  await addStep(tx, row.id, { from: 'open', to: 'cancelled', actor, note });
  await appendLogbook(tx, { liftId, kind: 'incident', actor: actor.userId ? { id: actor.userId, name: actor.name ?? '' } : null, data: { incidentId: Number(row.id), cause: 'fault', code, from: 'open', to: 'cancelled' } });
}
