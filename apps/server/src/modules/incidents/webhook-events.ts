import type { IncidentState, WebhookEventType } from '@liftlink/protocol';
import { enqueueWebhookEvent } from '../webhooks/events.ts';
import { findIncident, type Executor } from './repository.ts';

/** The webhook event a step of an incident is: opened, resolved, closed (or cancelled), else updated (docs/webhooks.md). */
const EVENT_OF_STATE: Partial<Record<IncidentState, WebhookEventType>> = { open: 'incident.opened', resolved: 'incident.resolved', closed: 'incident.closed', cancelled: 'incident.closed' };

/**
 * Queues the incident's webhook event for the organizations of its lift, with the incident as
 * its API shows it now. Called in the transaction of the step, so a step that rolls back sends
 * nothing. `to` is the state entered (null: the step changed no state, e.g. an assignment).
 */
export async function enqueueIncidentEvent(tx: Executor, incidentId: number | string, to: IncidentState | null): Promise<void> {
  const incident = await findIncident(tx, incidentId);
  if (!incident) return;
  await enqueueWebhookEvent(tx, { type: (to && EVENT_OF_STATE[to]) ?? 'incident.updated', liftId: incident.liftId, data: { ...incident } });
}
