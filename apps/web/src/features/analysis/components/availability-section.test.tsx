import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type {
  AvailabilityFigures,
  AvailabilityQuery,
  AvailabilityReport,
  AvailabilityRow,
} from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';
import type * as HttpModule from '../../../lib/http.ts';
import { changeLanguage, withTexts } from '../../../lib/i18n/language.ts';
import { renderAt } from '../../../test/render.tsx';
import { monthOf } from '../model/drill.ts';
import { AvailabilitySection } from './availability-section.tsx';

vi.mock('../../../lib/http.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof HttpModule>();
  return { ...actual, http: { get: vi.fn(), post: vi.fn() } };
});

const ORG = '0f0f0f0f-0000-4000-8000-000000000001';
const LIFT = '0f0f0f0f-0000-4000-8000-0000000000aa';
const HOUR = 3_600_000;

function figures(inService: number, extra: Partial<AvailabilityFigures> = {}): AvailabilityFigures {
  const times = {
    inService,
    faulted: HOUR,
    stopped: 0,
    locked: 0,
    disabled: 0,
    offline: HOUR,
    maintenance: 0,
  };
  return {
    times,
    availability: inService / (inService + 2 * HOUR),
    trips: 10,
    failures: 1,
    incidents: 1,
    mtta: 5 * 60_000,
    mttr: 2 * HOUR + 30 * 60_000,
    mtbf: inService,
    ...extra,
  };
}
const row = (key: string, name: string, lifts: number, inService = 98 * HOUR): AvailabilityRow => ({
  key,
  name,
  lifts,
  figures: figures(inService),
});

/** The fake server: a report per level, as the route answers. */
function answer(q: AvailabilityQuery): AvailabilityReport {
  const rows =
    q.level === 'orgs'
      ? [row(ORG, 'Harbour Lifts', 3)]
      : q.level === 'sites'
        ? [row('North', 'North', 2), row('', '', 1)]
        : q.level === 'lifts'
          ? [
              row(LIFT, 'Stairway A', 1),
              row('0f0f0f0f-0000-4000-8000-0000000000bb', 'Stairway B', 1),
            ]
          : [row(LIFT, 'Stairway A', 1)];
  return {
    level: q.level,
    from: q.from,
    to: q.to,
    months: [{ month: q.from, figures: figures(98 * HOUR) }],
    total: figures(98 * HOUR),
    rows,
    asOf: new Date().toISOString(),
  };
}

const queries = () => vi.mocked(http.get).mock.calls.map((c) => c[1] as AvailabilityQuery);

describe('availability drill-down', () => {
  beforeAll(async () => {
    await changeLanguage('en-US');
    await withTexts(['lifts', 'availability'], async () => undefined)();
  });
  beforeEach(() => {
    vi.mocked(http.get).mockReset();
    vi.mocked(http.get).mockImplementation(async (_path, query) =>
      answer(query as AvailabilityQuery),
    );
  });

  it('goes from organizations to sites, lifts and one lift, and back by the breadcrumb', async () => {
    const user = userEvent.setup();
    renderAt(<AvailabilitySection />);
    const [from, to] = [monthOf(new Date(), 5), monthOf(new Date())];
    const section = await screen.findByTestId('availability-section');
    // Organizations of the last 6 months, with the figures in people's units.
    // A row's name opens it: a link button labelled with what it opens (found by its label:
    // role queries walk the styles of five levels of antd tables, a minute on a loaded machine).
    const orgRow = (await within(section).findByLabelText(/Harbour Lifts/)).closest('tr')!;
    expect(queries()[0]).toEqual({ level: 'orgs', from, to });
    expect(within(orgRow).getByText('98.00 %')).toBeTruthy();
    expect(within(orgRow).getByText('5 min')).toBeTruthy();
    expect(within(orgRow).getByText('2 h 30 min')).toBeTruthy();
    expect(within(orgRow).getByText('4 d 2 h')).toBeTruthy();

    await user.click(within(section).getByLabelText(/Harbour Lifts/));
    await within(section).findByLabelText(/North/);
    expect(queries().at(-1)).toEqual({ level: 'sites', orgId: ORG, from, to });
    // The lifts without a site are named as such.
    await user.click(within(section).getByLabelText(/\(no site\)/));
    await within(section).findByLabelText(/Stairway B/);
    expect(queries().at(-1)).toEqual({ level: 'lifts', orgId: ORG, site: '', from, to });
    const crumbs = within(section).getByTestId('availability-breadcrumb');
    expect(crumbs.textContent).toContain('All organizations');
    expect(crumbs.textContent).toContain('Harbour Lifts');
    expect(crumbs.textContent).toContain('(no site)');

    await user.click(within(section).getByLabelText(/Stairway A/));
    await within(section).findByTestId('availability-states');
    expect(queries().at(-1)).toEqual({ level: 'lift', liftId: LIFT, from, to });
    // One lift: its rows are no longer links, and its time per state is shown.
    expect(within(section).queryByLabelText(/Stairway A/)).toBeNull();
    expect(within(section).getByTestId('availability-states').textContent).toContain('4 d 2 h');

    // Back to the organization's sites.
    await user.click(
      within(screen.getByTestId('availability-breadcrumb')).getByText('Harbour Lifts'),
    );
    await within(section).findByLabelText(/North/);
    expect(queries().at(-1)).toEqual({ level: 'sites', orgId: ORG, from, to });
    await user.click(
      within(screen.getByTestId('availability-breadcrumb')).getByText('All organizations'),
    );
    await within(section).findByLabelText(/Harbour Lifts/);
    expect(within(section).queryByLabelText(/North/)).toBeNull();
  });

  it('says so when the months hold no figures', async () => {
    vi.mocked(http.get).mockImplementation(async (_path, query) => ({
      ...answer(query as AvailabilityQuery),
      rows: [],
    }));
    renderAt(<AvailabilitySection />);
    expect(await screen.findByText('No figures for these months')).toBeTruthy();
  });
});
