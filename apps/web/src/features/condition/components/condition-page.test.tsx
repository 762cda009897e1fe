import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ConditionListItem } from '@liftlink/protocol';
import { ApiError, http } from '../../../lib/http.ts';
import type * as HttpModule from '../../../lib/http.ts';
import { withTexts } from '../../../lib/i18n/language.ts';
import { renderAt, useEnglish } from '../../../test/render.tsx';
import ConditionPage from './condition-page.tsx';

vi.mock('../../../lib/http.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof HttpModule>();
  return { ...actual, http: { get: vi.fn(), post: vi.fn() } };
});
const get = vi.mocked(http.get);

const stiff: ConditionListItem = {
  liftId: '6f1c2a3b-0000-4000-8000-000000000003',
  deviceNo: 'DEMO-0003',
  alias: 'Station',
  liftKind: 'inclinedStraightRack',
  score: 55,
  computedAt: '2026-11-25T05:00:00.000Z',
  mainFactor: 'travelTime',
  reason: {
    key: 'travelTime.worse',
    params: { from: 1, to: 2, value: 18.4, baseline: 14, percent: 31 },
  },
  fellBy: 40,
  visitOn: '2026-12-07',
};
const alarm: ConditionListItem = {
  ...stiff,
  liftId: '6f1c2a3b-0000-4000-8000-000000000005',
  deviceNo: 'DEMO-0005',
  alias: null,
  score: 60,
  mainFactor: 'alarmTests',
  reason: { key: 'alarmTests.worse', params: { value: 80, baseline: 24, failed: 'speechLine' } },
  fellBy: null,
  visitOn: '2026-12-09',
};

describe('the lift health page', () => {
  beforeAll(async () => {
    await useEnglish();
    await withTexts(['condition'], async () => undefined)();
  });
  beforeEach(() => get.mockReset());

  it('lists the falling lifts with score, the main reason explained, the proposed visit and a link to the lift', async () => {
    get.mockResolvedValue({ list: [stiff, alarm], total: 2 });
    renderAt(<ConditionPage />);
    const table = await screen.findByTestId('condition-list');
    const rows = within(table).getAllByTestId('condition-reason');
    expect(rows.map((r) => r.textContent)).toEqual([
      'Travel time: Travel 1→2 takes 18.4 s, 31 % above this lift’s baseline of 14 s',
      'Alarm self-tests: Last passed self-test 80 h ago (expected every 24 h); the last self-test failed: speechLine',
    ]);
    expect(
      within(table)
        .getAllByTestId('condition-score')
        .map((s) => s.textContent),
    ).toEqual(['55', '60']);
    expect(within(table).getByText('fell 40 points in 14 days')).toBeTruthy();
    expect(
      within(table)
        .getAllByTestId('condition-visit')
        .map((v) => v.textContent),
    ).toEqual(['2026-12-07', '2026-12-09']);
    const links = within(table).getAllByTestId('condition-lift-link');
    expect(links.map((l) => [l.textContent, l.getAttribute('href')])).toEqual([
      ['Station · DEMO-0003', `/lift/${stiff.liftId}`],
      ['DEMO-0005', `/lift/${alarm.liftId}`],
    ]);
    expect(get).toHaveBeenCalledWith(
      '/auth/access/dashboard/condition',
      { page: 1, pageSize: 20 },
      expect.anything(),
    );
  });

  it('says so when no lift is falling', async () => {
    get.mockResolvedValue({ list: [], total: 0 });
    renderAt(<ConditionPage />);
    expect(await screen.findByText('No lift is falling')).toBeTruthy();
  });

  it('shows a failed load with a retry that loads again', async () => {
    // a 403 is not retried by itself: the error shows at once
    get
      .mockRejectedValueOnce(new ApiError(403, 'forbidden', 'forbidden'))
      .mockResolvedValue({ list: [stiff], total: 1 });
    renderAt(<ConditionPage />);
    const error = await screen.findByTestId('panel-error');
    await userEvent.click(within(error).getByRole('button'));
    expect(await screen.findByTestId('condition-list')).toBeTruthy();
  });
});
