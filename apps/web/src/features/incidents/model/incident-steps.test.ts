import { describe, expect, it } from 'vitest';
import { INCIDENT_STATES, INCIDENT_TRANSITIONS } from '@liftlink/protocol';
import { ageOf, isSetback, nextSteps } from './incident-steps.ts';

describe('next steps of an incident', () => {
  it.each(INCIDENT_STATES.map((s) => [s]))(
    'from %s are those of the transitions table',
    (state) => {
      expect(nextSteps({ state, assigneeId: 'u' }).map((s) => s.to)).toEqual([
        ...INCIDENT_TRANSITIONS[state],
      ]);
      expect(nextSteps({ state, assigneeId: 'u' }).every((s) => s.blockedBy === null)).toBe(true);
    },
  );

  it('blocks "on the way" and "on site" until someone is assigned', () => {
    expect(nextSteps({ state: 'acknowledged', assigneeId: null })).toEqual([
      { to: 'enRoute', blockedBy: 'needsAssignee' },
      { to: 'resolved', blockedBy: null },
      { to: 'cancelled', blockedBy: null },
    ]);
    expect(nextSteps({ state: 'enRoute', assigneeId: null })[0]).toEqual({
      to: 'onSite',
      blockedBy: 'needsAssignee',
    });
  });

  it('asks to confirm a turn back and a cancel only', () => {
    expect(isSetback('enRoute', 'acknowledged')).toBe(true);
    expect(isSetback('open', 'cancelled')).toBe(true);
    expect(isSetback('open', 'acknowledged')).toBe(false);
  });

  it('gives ages in minutes, hours, then days', () => {
    const now = Date.parse('2026-01-03T12:00:00Z');
    expect(ageOf('2026-01-03T11:15:30Z', now)).toEqual({ unit: 'minutes', count: 44 });
    expect(ageOf('2026-01-02T13:00:00Z', now)).toEqual({ unit: 'hours', count: 23 });
    expect(ageOf('2025-12-30T12:00:00Z', now)).toEqual({ unit: 'days', count: 4 });
    expect(ageOf('2026-01-03T12:05:00Z', now)).toEqual({ unit: 'minutes', count: 0 });
  });
});
