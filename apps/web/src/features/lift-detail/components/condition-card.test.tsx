import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import type { ConditionLift } from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';
import type * as HttpModule from '../../../lib/http.ts';
import { withTexts } from '../../../lib/i18n/language.ts';
import { useEnglish, InApp } from '../../../test/render.tsx';
import { ConditionCard } from './condition-card.tsx';

vi.mock('../../../lib/http.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof HttpModule>();
  return { ...actual, http: { get: vi.fn(), post: vi.fn() } };
});
const get = vi.mocked(http.get);
const LIFT = '6f1c2a3b-0000-4000-8000-000000000002';

const worn: ConditionLift = {
  liftId: LIFT,
  deviceNo: 'DEMO-0002',
  score: 47,
  computedAt: '2026-11-25T05:00:00.000Z',
  factors: [
    {
      id: 'batteryCharge',
      state: 'worse',
      score: 0,
      weight: 35,
      points: 35,
      value: 0.905,
      baseline: 0.98,
      baselineFrom: 'lift',
      unit: 'ratio',
      reason: { key: 'batteryCharge.worse', params: { value: 90.5, baseline: 98, percent: 8 } },
    },
    {
      id: 'travelTime',
      state: 'learning',
      score: null,
      weight: 45,
      points: 0,
      value: null,
      baseline: null,
      baselineFrom: null,
      unit: 's',
      reason: { key: 'travelTime.learning', params: {} },
    },
    {
      id: 'flapPedal',
      state: 'ok',
      score: 100,
      weight: 40,
      points: 0,
      value: 0,
      baseline: 0,
      baselineFrom: 'kind',
      unit: 'perDay',
      reason: { key: 'flapPedal.ok', params: { value: 0, baseline: 0, count: 0 } },
    },
  ],
  history: [
    { day: '2026-11-24', score: 70 },
    { day: '2026-11-25', score: 47 },
  ],
  proposal: {
    mainFactor: 'batteryCharge',
    reason: { key: 'batteryCharge.worse', params: { value: 90.5, baseline: 98, percent: 8 } },
    fellBy: 23,
    visitOn: '2026-12-05',
  },
};

function show() {
  render(<ConditionCard liftId={LIFT} />, { wrapper: InApp });
  return screen.getByTestId('panel-condition');
}

describe('the condition card of the lift page', () => {
  beforeAll(async () => {
    await useEnglish();
    await withTexts(['condition'], async () => undefined)();
  });
  beforeEach(() => get.mockReset());

  it('shows the score, the proposed visit with its reason, each factor explained, and the history line', async () => {
    get.mockResolvedValue(worn);
    const card = show();
    expect((await within(card).findByTestId('condition-score')).textContent).toBe('47');
    expect(within(card).getByTestId('condition-proposal').textContent).toBe(
      'Visit proposed by 2026-12-05: Check value 90.5 % of the charge value, 8 % below the baseline of 98 %',
    );
    const battery = within(card).getByTestId('condition-factor-batteryCharge');
    expect(battery.getAttribute('data-state')).toBe('worse');
    expect(battery.textContent).toContain('−35 pts');
    expect(battery.textContent).toContain('own baseline');
    expect(within(card).getByTestId('condition-factor-travelTime').textContent).toContain(
      'Learning this lift’s travel times (its first two weeks)',
    );
    expect(within(card).getByTestId('condition-factor-flapPedal').textContent).toContain(
      'default baseline',
    );
    const line = within(card).getByTestId('condition-sparkline');
    expect(line.getAttribute('aria-label')).toBe('Last 30 days: 2026-11-24 70, 2026-11-25 47');
    // 70 sits higher (smaller y) than 47 on a 32 px line: y = 30 − score × 0.28
    expect(line.querySelector('polyline')?.getAttribute('points')).toBe('0,10.4 160,16.8');
    expect(get).toHaveBeenCalledWith(
      '/auth/access/lift/condition',
      { liftId: LIFT },
      expect.anything(),
    );
  });

  it('says the score is not computed yet for a new lift', async () => {
    get.mockResolvedValue({
      ...worn,
      score: null,
      computedAt: null,
      factors: [],
      history: [],
      proposal: null,
    });
    const card = show();
    expect(await within(card).findByText('No score yet (computed every 10 minutes)')).toBeTruthy();
    expect(within(card).queryByTestId('condition-score')).toBeNull();
  });
});
