import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { LogbookVerifyResult } from '@liftlink/protocol';
import { ApiError, http } from '../../../lib/http.ts';
import type * as HttpModule from '../../../lib/http.ts';
import { useEnglish } from '../../../test/render.tsx';
import { LogbookPanel } from './logbook-panel.tsx';
import { LIFT, entryOf, postedTo, renderInApp, serveRoutes } from './logbook-test-kit.tsx';

vi.mock('../../../lib/http.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof HttpModule>();
  return { ...actual, http: { get: vi.fn(), post: vi.fn(), download: vi.fn() } };
});

const PAGE = '/auth/access/lift/logbook/page';
const VERIFY = '/auth/access/lift/logbook/verify';
const EXPORT = '/auth/access/lift/logbook/export';

const entries = [
  entryOf('incident', {
    incidentId: 7,
    cause: 'fault',
    code: 'E12',
    from: 'open',
    to: 'acknowledged',
  }),
  entryOf('approval', {
    action: 'requested',
    approvalId: 'a1',
    command: 'aging',
    args: { target: 'overall' },
    reason: 'Yearly check',
  }),
  entryOf('lease', {
    action: 'takenOver',
    epoch: 3,
    previousHolderId: 'u2',
    previousHolderName: 'Bob',
  }),
  entryOf('credential', { action: 'issued', deviceNo: 'LL-0001' }),
  entryOf(
    'config',
    { source: 'cloud', commandId: 'c9', versionBefore: 4, versionAfter: 5 },
    { actorId: null, actorName: null },
  ),
  entryOf('command', {
    commandId: 'c1',
    type: 'cmd',
    name: 'summon',
    args: { floor: 2 },
    state: 'done',
    reason: null,
    leaseEpoch: 3,
    approval: null,
  }),
].reverse();

const verified = (extra: Partial<LogbookVerifyResult>): LogbookVerifyResult => ({
  ok: true,
  checked: 6,
  headSeq: 6,
  headHash: 'f'.repeat(64),
  broken: null,
  ...extra,
});

const rows = () => screen.getAllByTestId('logbook-summary').map((e) => e.textContent);

describe('lift logbook', () => {
  beforeAll(useEnglish);
  beforeEach(() => {
    vi.mocked(http.post).mockReset();
    vi.mocked(http.get).mockReset();
    vi.mocked(http.download).mockReset();
  });

  it('lists the entries newest first, each kind in words with who did it', async () => {
    serveRoutes({ post: { [PAGE]: () => ({ list: entries, total: entries.length }) } });
    renderInApp(<LogbookPanel liftId={LIFT} deviceNo="LL-0001" canExport />);
    await waitFor(() => expect(rows()).toHaveLength(6));
    expect(rows()).toEqual([
      'Summon to floor 2: Done',
      'Configuration version 4 → 5, sent from the cloud',
      'New IoT secret issued for LL-0001',
      'Remote control taken over from Bob',
      'Approval requested: Overall aging (Yearly check)',
      'Incident #7: open → acknowledged',
    ]);
    expect(screen.getAllByTestId('logbook-kind').map((e) => e.textContent)).toEqual([
      'Command',
      'Configuration',
      'Credential',
      'Remote control',
      'Approval',
      'Incident',
    ]);
    // What the lift did by itself has no user.
    expect(screen.getAllByTestId('logbook-actor')[1]).toHaveTextContent('Lift or system');
    expect(screen.getAllByTestId('logbook-actor')[0]).toHaveTextContent('olga');
    expect(postedTo(PAGE)[0]).toEqual({ liftId: LIFT, page: 1, pageSize: 20 });
  });

  it('says the chain is intact with how many entries were checked', async () => {
    const user = userEvent.setup();
    serveRoutes({
      post: { [PAGE]: () => ({ list: entries, total: 6 }), [VERIFY]: () => verified({}) },
    });
    renderInApp(<LogbookPanel liftId={LIFT} deviceNo="LL-0001" canExport />);
    await user.click(screen.getByTestId('logbook-verify'));
    const result = await screen.findByTestId('logbook-verify-result');
    expect(result).toHaveAttribute('data-ok', 'true');
    expect(result).toHaveTextContent(
      'Chain intact: 6 entries checked, none changed, removed or reordered',
    );
    expect(result).toHaveTextContent(`Last entry No. 6, hash ${'f'.repeat(64)}`);
    expect(postedTo(VERIFY)).toEqual([{ liftId: LIFT }]);
  });

  it('names the first broken entry and what is wrong with it', async () => {
    const user = userEvent.setup();
    serveRoutes({
      post: {
        [PAGE]: () => ({ list: entries, total: 6 }),
        [VERIFY]: () => verified({ ok: false, checked: 1, broken: { seq: 2, problem: 'altered' } }),
      },
    });
    renderInApp(<LogbookPanel liftId={LIFT} deviceNo="LL-0001" canExport />);
    await user.click(screen.getByTestId('logbook-verify'));
    const result = await screen.findByTestId('logbook-verify-result');
    expect(result).toHaveAttribute('data-ok', 'false');
    expect(result).toHaveTextContent('Chain broken at entry No. 2');
    expect(result).toHaveTextContent(
      'This entry was changed after it was written: its content no longer matches its hash.',
    );
    expect(result).toHaveTextContent('The 1 entries before it are intact.');
  });

  it('offers the CSV export only with lift.export, and exports what the filter shows', async () => {
    const user = userEvent.setup();
    serveRoutes({ post: { [PAGE]: () => ({ list: entries, total: 6 }) } });
    vi.mocked(http.download).mockResolvedValue({ blob: new Blob(['seq']), fileName: 'l.csv' });
    const view = renderInApp(<LogbookPanel liftId={LIFT} deviceNo="LL-0001" canExport={false} />);
    await waitFor(() => expect(rows()).toHaveLength(6));
    expect(screen.queryByTestId('logbook-export')).not.toBeInTheDocument();
    expect(screen.getByTestId('logbook-verify')).toBeInTheDocument();
    view.unmount();

    renderInApp(<LogbookPanel liftId={LIFT} deviceNo="LL-0001" canExport />);
    await user.click(await screen.findByTestId('logbook-export'));
    await waitFor(() => expect(http.download).toHaveBeenCalledTimes(1));
    expect(vi.mocked(http.download).mock.calls[0]).toEqual([
      EXPORT,
      undefined,
      { body: { liftId: LIFT } },
    ]);
  });

  it('exports a PDF in the browser time zone, and shows a missing server font as a translated error', async () => {
    const user = userEvent.setup();
    serveRoutes({ post: { [PAGE]: () => ({ list: entries, total: 6 }) } });
    vi.mocked(http.download).mockResolvedValueOnce({
      blob: new Blob(['%PDF-']),
      fileName: 'l.pdf',
    });
    renderInApp(<LogbookPanel liftId={LIFT} deviceNo="LL-0001" canExport />);
    await user.click(await screen.findByTestId('logbook-export-pdf'));
    await waitFor(() => expect(http.download).toHaveBeenCalledTimes(1));
    expect(vi.mocked(http.download).mock.calls[0]).toEqual([
      EXPORT,
      undefined,
      {
        body: {
          liftId: LIFT,
          format: 'pdf',
          timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        },
      },
    ]);
    vi.mocked(http.download).mockRejectedValueOnce(new ApiError(503, 'logbook.pdfFont', 'No font'));
    await user.click(screen.getByTestId('logbook-export-pdf'));
    expect(
      await screen.findByText(/The server has no font for the PDF export/),
    ).toBeInTheDocument();
  });

  it('filters by kind on the server, from the first page', async () => {
    const user = userEvent.setup();
    serveRoutes({ post: { [PAGE]: () => ({ list: [], total: 0 }) } });
    renderInApp(<LogbookPanel liftId={LIFT} deviceNo={null} canExport={false} />);
    expect(await screen.findByText('No logbook entries')).toBeInTheDocument();
    await user.click(within(screen.getByTestId('logbook-kinds')).getByRole('combobox'));
    await user.click(await screen.findByTitle('Approval'));
    await waitFor(() =>
      expect(postedTo(PAGE).at(-1)).toEqual({
        liftId: LIFT,
        kinds: ['approval'],
        page: 1,
        pageSize: 20,
      }),
    );
    expect(await screen.findByText('No entries match the filter')).toBeInTheDocument();
  });

  it('shows a failed load with a retry', async () => {
    serveRoutes({
      post: {
        [PAGE]: () => {
          throw new ApiError(404, 'lift.notFound', 'not found');
        },
      },
    });
    renderInApp(<LogbookPanel liftId={LIFT} deviceNo={null} canExport={false} />);
    expect(await screen.findByTestId('panel-error')).toHaveTextContent('Lift not found');
    expect(within(screen.getByTestId('panel-error')).getByRole('button')).toBeInTheDocument();
    expect(screen.queryAllByTestId('logbook-summary')).toHaveLength(0);
  });
});
