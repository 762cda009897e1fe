import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReportList, ReportTargets, ReportView } from '@liftlink/protocol';
import { ApiError, http } from '../../../lib/http.ts';
import type * as HttpModule from '../../../lib/http.ts';
import { withTexts } from '../../../lib/i18n/language.ts';
import { renderAt, useEnglish } from '../../../test/render.tsx';
import { recentMonths } from './months.ts';
import ReportsPage from './reports-page.tsx';

vi.mock('../../../lib/http.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof HttpModule>();
  return { ...actual, http: { get: vi.fn(), post: vi.fn(), download: vi.fn() } };
});

const ORG = '0f0f0f0f-0000-4000-8000-000000000001';
const OTHER = '0f0f0f0f-0000-4000-8000-000000000002';
const LIST = '/auth/access/dashboard/reports';
const TARGETS = '/auth/access/dashboard/reports/targets';

const report = (extra: Partial<ReportView>): ReportView => ({
  id: '1f1f1f1f-0000-4000-8000-000000000001',
  orgId: ORG,
  orgName: 'Ops',
  site: null,
  month: '2026-10',
  language: 'en-US',
  createdAt: '2026-11-01T05:00:00.000Z',
  createdBy: null,
  pdfSize: 20_000,
  csvSize: 400,
  ...extra,
});

function serve(
  list: () => ReportList | Promise<ReportList>,
  targets: ReportTargets = {
    list: [{ orgId: ORG, orgName: 'Ops', sites: ['North', 'Поликлиника № 3'] }],
  },
) {
  vi.mocked(http.get).mockImplementation(async (path: string) => {
    if (path === LIST) return list();
    if (path === TARGETS) return targets;
    throw new Error(`unexpected GET ${path}`);
  });
}

// The table's body rows, by the table's own markup: a role query over the whole page, polled
// by waitFor, took seconds a call on a slow day.
const rows = () => [
  ...document.querySelectorAll<HTMLElement>('.ant-table-tbody > tr.ant-table-row'),
];

describe('reports page', () => {
  beforeAll(async () => {
    await useEnglish();
    await withTexts(['reports'], async () => undefined)();
  });
  beforeEach(() => {
    vi.mocked(http.get).mockReset();
    vi.mocked(http.post).mockReset();
    vi.mocked(http.download).mockReset();
  });

  it('lists the stored reports, whose they are and who built them, and downloads a PDF or a CSV', async () => {
    const org = report({});
    const site = report({
      id: '1f1f1f1f-0000-4000-8000-000000000002',
      site: 'Поликлиника № 3',
      language: 'ru-RU',
      createdBy: 'anna',
    });
    serve(() => ({ list: [org, site] }));
    vi.mocked(http.download).mockResolvedValue({
      blob: new Blob(['%PDF-']),
      fileName: 'report-2026-10-en-US.pdf',
    });
    renderAt(<ReportsPage />, { path: `/dashboard/reports?id=${site.id}` });

    await waitFor(() => expect(rows()).toHaveLength(2));
    const [first, second] = rows();
    expect(within(first!).getByText('Whole organization')).toBeInTheDocument();
    expect(within(first!).getByText(/Monthly job/)).toBeInTheDocument();
    expect(within(first!).getByText('English')).toBeInTheDocument();
    expect(within(second!).getByText('Поликлиника № 3')).toBeInTheDocument();
    expect(within(second!).getByText('Русский')).toBeInTheDocument();
    expect(within(second!).getByText(/anna/)).toBeInTheDocument();
    // The report a mail's link names is marked.
    expect(second).toHaveClass('reports-linked');
    expect(first).not.toHaveClass('reports-linked');

    const user = userEvent.setup();
    await user.click(within(first!).getByRole('button', { name: /^PDF/ }));
    await waitFor(() => expect(http.download).toHaveBeenCalledTimes(1));
    expect(vi.mocked(http.download).mock.calls[0]!.slice(0, 2)).toEqual([
      '/auth/access/dashboard/reports/pdf',
      { id: org.id },
    ]);
    await user.click(within(second!).getByRole('button', { name: /^CSV/ }));
    await waitFor(() => expect(http.download).toHaveBeenCalledTimes(2));
    expect(vi.mocked(http.download).mock.calls[1]!.slice(0, 2)).toEqual([
      '/auth/access/dashboard/reports/csv',
      { id: site.id },
    ]);
  });

  it('says when there is no report yet', async () => {
    serve(() => ({ list: [] }));
    renderAt(<ReportsPage />);
    expect(await screen.findByText(/No reports yet/)).toBeInTheDocument();
  });

  it('shows a failed load with its reason and loads again on retry', async () => {
    let fail = true;
    serve(() => {
      if (fail) throw new ApiError(404, 'report.notFound', 'Report not found');
      return { list: [report({})] };
    });
    renderAt(<ReportsPage />);
    expect(await screen.findByTestId('panel-error')).toHaveTextContent(
      'The report does not exist or you may not see it',
    );
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
  });

  it("generates a site's report of last month in the chosen language, then lists it", async () => {
    let stored: ReportView[] = [];
    serve(() => ({ list: stored }));
    const built = report({ site: 'North', createdBy: 'me' });
    vi.mocked(http.post).mockImplementation(async () => {
      stored = [built];
      return built;
    });
    renderAt(<ReportsPage />);
    expect(await screen.findByText(/No reports yet/)).toBeInTheDocument();
    const user = userEvent.setup();
    const form = screen.getByTestId('report-generate');
    // The only organization in reach is chosen already; pick a site.
    await waitFor(() => expect(within(form).getByText('Ops')).toBeInTheDocument());
    await user.click(within(form).getByRole('combobox', { name: 'Site' }));
    await user.click(await screen.findByTitle('North'));
    await user.click(within(form).getByRole('button', { name: 'Generate now' }));

    await waitFor(() => expect(http.post).toHaveBeenCalledTimes(1));
    expect(vi.mocked(http.post).mock.calls[0]!.slice(0, 2)).toEqual([
      '/auth/access/dashboard/reports/generate',
      { orgId: ORG, site: 'North', month: recentMonths(2)[1], language: 'en-US' },
    ]);
    expect(await screen.findByText('Report generated')).toBeInTheDocument();
    await waitFor(() => expect(rows()).toHaveLength(1));
  });

  it('asks for the organization when several are in reach, before sending anything', async () => {
    serve(() => ({ list: [] }), {
      list: [
        { orgId: ORG, orgName: 'Ops', sites: [] },
        { orgId: OTHER, orgName: 'Far', sites: [] },
      ],
    });
    renderAt(<ReportsPage />);
    const form = await screen.findByTestId('report-generate');
    await userEvent.setup().click(within(form).getByRole('button', { name: 'Generate now' }));
    expect(await within(form).findByText('Input cannot be empty')).toBeInTheDocument();
    expect(http.post).not.toHaveBeenCalled();
  });
});
