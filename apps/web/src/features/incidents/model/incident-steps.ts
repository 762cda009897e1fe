import {
  ACTIVE_INCIDENT_STATES,
  INCIDENT_TRANSITIONS,
  STATES_NEEDING_ASSIGNEE,
  type IncidentState,
  type IncidentView,
} from '@liftlink/protocol';

/** A button of the detail page: a next state, and why it may not be taken yet (null: it may). */
export interface NextStep {
  to: IncidentState;
  blockedBy: 'needsAssignee' | null;
}

/**
 * The steps the incident's state allows (the protocol's one table), in the order of the
 * table: the way forward first, cancelling last. Steps that need a technician are blocked
 * until one is assigned; the server checks the same.
 */
export function nextSteps(incident: Pick<IncidentView, 'state' | 'assigneeId'>): NextStep[] {
  return INCIDENT_TRANSITIONS[incident.state].map((to) => ({
    to,
    blockedBy:
      STATES_NEEDING_ASSIGNEE.includes(to) && !incident.assigneeId ? 'needsAssignee' : null,
  }));
}

export function isActive(state: IncidentState): boolean {
  return ACTIVE_INCIDENT_STATES.includes(state);
}

/** A step that goes back or gives up: shown as a plain (not primary) button, asked to confirm. */
export function isSetback(from: IncidentState, to: IncidentState): boolean {
  return to === 'cancelled' || (from === 'enRoute' && to === 'acknowledged');
}

/** Whole minutes, hours or days since `from`, for "open for 3 h" (coarse on purpose). */
export function ageOf(
  from: string,
  now: number,
): { unit: 'minutes' | 'hours' | 'days'; count: number } {
  const minutes = Math.max(0, Math.floor((now - new Date(from).getTime()) / 60_000));
  if (minutes < 60) return { unit: 'minutes', count: minutes };
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return { unit: 'hours', count: hours };
  return { unit: 'days', count: Math.floor(hours / 24) };
}
