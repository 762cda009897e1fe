import { describe, expect, it } from 'vitest';
import { LOGBOOK_DATA_SCHEMAS, LOGBOOK_KINDS, logbookPageRequestSchema } from './logbook.ts';

describe('logbook schemas', () => {
  const liftId = '6f1c0d6e-2b1a-4c55-9a57-0d2f3b1e9a10';

  it('pages 20 newest entries by default and refuses an unknown kind or a time without offset', () => {
    expect(logbookPageRequestSchema.parse({ liftId })).toEqual({ liftId, page: 1, pageSize: 20 });
    expect(logbookPageRequestSchema.safeParse({ liftId, kinds: ['gossip'] }).success).toBe(false);
    expect(logbookPageRequestSchema.safeParse({ liftId, from: '2026-11-24 10:00' }).success).toBe(
      false,
    );
    expect(logbookPageRequestSchema.safeParse({ liftId: 'lift-1' }).error?.issues[0]?.message).toBe(
      'validation.id',
    );
  });

  it('gives every kind a data shape; the reserved kinds take any object until their module defines one', () => {
    expect(Object.keys(LOGBOOK_DATA_SCHEMAS).sort()).toEqual([...LOGBOOK_KINDS].sort());
    expect(
      LOGBOOK_DATA_SCHEMAS.lease.safeParse({
        action: 'taken',
        epoch: 1,
        previousHolderId: null,
        previousHolderName: null,
      }).success,
    ).toBe(true);
    // A feed's mistake is refused, not stored: an unknown action, a missing field, an extra one.
    expect(
      LOGBOOK_DATA_SCHEMAS.lease.safeParse({
        action: 'stolen',
        epoch: 1,
        previousHolderId: null,
        previousHolderName: null,
      }).success,
    ).toBe(false);
    expect(LOGBOOK_DATA_SCHEMAS.credential.safeParse({ action: 'issued' }).success).toBe(false);
    expect(
      LOGBOOK_DATA_SCHEMAS.config.safeParse({
        source: 'cloud',
        commandId: null,
        versionBefore: 0,
        versionAfter: 1,
        config: {},
      }).success,
    ).toBe(false);
    expect(
      LOGBOOK_DATA_SCHEMAS.visit.safeParse({ technician: 'Ivan', parts: ['belt'] }).success,
    ).toBe(false);
    expect(
      LOGBOOK_DATA_SCHEMAS.firmware.safeParse({ technician: 'Ivan', parts: ['belt'] }).success,
    ).toBe(false);
    // Incidents are still free-form.
    expect(
      LOGBOOK_DATA_SCHEMAS.incident.safeParse({ technician: 'Ivan', parts: ['belt'] }).success,
    ).toBe(true);
  });
});
