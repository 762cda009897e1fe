import { describe, expect, it } from 'vitest';
import { maintenanceVisitRecordSchema, type ChecklistItemView } from '@liftlink/protocol';
import { limitsText, parseMeasured, recordBody, tally, verdictOf } from './checklist.ts';

const measured = (min: number | null, max: number | null): ChecklistItemView => ({
  id: 'm',
  labelText: 'M',
  label: 'M',
  type: 'measured',
  unit: 'mm',
  min,
  max,
});
const passFail: ChecklistItemView = {
  ...measured(null, null),
  id: 'p',
  type: 'passFail',
  unit: null,
};

describe('checklist answers', () => {
  it('fails a measured value outside its limits, either side, and only then', () => {
    const item = measured(0.1, 0.6);
    expect(verdictOf(item, { value: '0.05' })).toBe('fail');
    expect(verdictOf(item, { value: '0.7' })).toBe('fail');
    expect(verdictOf(item, { value: '0.1' })).toBe('pass');
    expect(verdictOf(item, { value: '0,6' })).toBe('pass');
    expect(verdictOf(measured(null, 10), { value: '-3' })).toBe('pass');
    expect(verdictOf(item, { value: 'abc' })).toBe('open');
    expect(verdictOf(item, {})).toBe('open');
    expect(verdictOf(passFail, { passed: false })).toBe('fail');
    expect(verdictOf(passFail, {})).toBe('open');
  });

  it('reads numbers as typed on a phone', () => {
    expect(parseMeasured(' 26,4 ')).toBe(26.4);
    expect(parseMeasured('.5')).toBe(0.5);
    expect(parseMeasured('1e3')).toBeNull();
    expect(parseMeasured('')).toBeNull();
  });

  it('counts answered and failed items', () => {
    expect(tally([passFail, measured(0, 2)], { p: { passed: true }, m: { value: '3' } })).toEqual({
      answered: 2,
      failed: 1,
      total: 2,
    });
  });

  it('builds a body the schema accepts; a root cause only with incidents', () => {
    const body = recordBody(
      '6f1c2a3b-0000-4000-8000-000000000001',
      [passFail, measured(0, 2)],
      {
        answers: { p: { passed: true, note: '  ' }, m: { value: '1,5' } },
        findings: '  ok  ',
        partsUsed: [' belt ', ''],
        incidentIds: [],
        rootCause: 'battery',
      },
      new Date(Date.now() - 3_600_000).toISOString(),
    );
    expect(body.results).toEqual([
      { itemId: 'p', passed: true },
      { itemId: 'm', value: 1.5 },
    ]);
    expect(body).toMatchObject({ findings: 'ok', partsUsed: ['belt'], incidentIds: [] });
    expect(body).not.toHaveProperty('rootCause');
    expect(maintenanceVisitRecordSchema.safeParse(body).success).toBe(true);
  });

  it('writes limits with the unit', () => {
    expect(limitsText(measured(24, 28.8))).toBe('24–28.8 mm');
    expect(limitsText(measured(null, 10))).toBe('≤ 10 mm');
    expect(limitsText(measured(0, null))).toBe('≥ 0 mm');
  });
});
