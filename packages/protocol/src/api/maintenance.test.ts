import { describe, expect, it } from 'vitest';
import { DEVICE_KINDS } from '../device/kinds.ts';
import { DEFAULT_CHECKLISTS, checklistItemSchema, computeDue, maintenancePlanSetSchema, maintenanceTemplateSetSchema, maintenanceVisitRecordSchema, withinLimits } from './maintenance.ts';

const DAY = 86_400_000;
const now = new Date('2026-06-01T12:00:00Z');
const ago = (days: number) => new Date(now.getTime() - days * DAY);

describe('maintenance', () => {
  it('ships a valid checklist for every lift kind, item ids unique, measured items with limits', () => {
    for (const kind of DEVICE_KINDS) {
      const items = DEFAULT_CHECKLISTS[kind];
      expect(maintenanceTemplateSetSchema.safeParse({ kind, items }).success, kind).toBe(true);
      for (const item of items.filter((i) => i.type === 'measured')) expect(item.min != null || item.max != null, item.id).toBe(true);
    }
    expect(DEFAULT_CHECKLISTS.verticalHydraulic.map((i) => i.id)).toEqual(expect.arrayContaining(['oilLevel', 'systemPressure', 'ruptureValve', 'emergencyStop']));
  });

  it('refuses a plan without an interval and items whose limits cross', () => {
    const none = maintenancePlanSetSchema.safeParse({ liftId: '00000000-0000-4000-8000-000000000000' });
    expect(none.error?.issues.map((i) => i.message)).toEqual(['validation.planInterval']);
    expect(checklistItemSchema.safeParse({ id: 'x', labelText: 'X', type: 'measured', min: 5, max: 1 }).error?.issues[0]?.message).toBe('validation.min');
    expect(checklistItemSchema.safeParse({ id: 'x', labelText: 'X', type: 'passFail', min: 1 }).success).toBe(false);
  });

  it('takes a visit with or without the idempotency key of its form, and refuses a malformed key', () => {
    const visit = { liftId: '00000000-0000-4000-8000-000000000000', results: [{ itemId: 'brake', passed: true }] };
    expect(maintenanceVisitRecordSchema.safeParse(visit).success).toBe(true);
    expect(maintenanceVisitRecordSchema.parse({ ...visit, idempotencyKey: '5f0c6a3e-8d1b-4c2a-9e7f-1a2b3c4d5e6f' }).idempotencyKey).toBe('5f0c6a3e-8d1b-4c2a-9e7f-1a2b3c4d5e6f');
    expect(maintenanceVisitRecordSchema.safeParse({ ...visit, idempotencyKey: 'short' }).error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['idempotencyKey', 'validation.invalid']]);
  });

  it('fails a value outside either limit', () => {
    expect([withinLimits({ min: 60, max: 100 }, 59.9), withinLimits({ min: 60, max: 100 }, 60), withinLimits({ min: null, max: 2 }, 2.1), withinLimits({ min: null, max: null }, -5)]).toEqual([false, true, false, true]);
  });

  it('is due by whichever comes first, days or trips', () => {
    const plan = { intervalDays: 30, intervalTrips: 1000, since: ago(100) };
    expect(computeDue(null, { at: null, id: null }, 0, now)).toMatchObject({ status: 'noPlan' });
    expect(computeDue(plan, { at: ago(10), id: 1 }, 100, now)).toMatchObject({ status: 'ok', daysLeft: 20, tripsLeft: 900, dueBy: null });
    expect(computeDue(plan, { at: ago(25), id: 1 }, 100, now)).toMatchObject({ status: 'dueSoon', dueBy: 'days', daysLeft: 5 });
    expect(computeDue(plan, { at: ago(10), id: 1 }, 950, now)).toMatchObject({ status: 'dueSoon', dueBy: 'trips', tripsLeft: 50 });
    expect(computeDue(plan, { at: ago(25), id: 1 }, 1001, now)).toMatchObject({ status: 'overdue', dueBy: 'trips', tripsLeft: -1 });
    expect(computeDue(plan, { at: ago(31), id: 1 }, 950, now)).toMatchObject({ status: 'overdue', dueBy: 'days', daysLeft: -1 });
    // Without a visit, counting starts when the plan was set.
    expect(computeDue({ intervalDays: 30, intervalTrips: null, since: ago(100) }, { at: null, id: null }, 0, now)).toMatchObject({ status: 'overdue', daysLeft: -70, lastVisitAt: null });
  });
});
