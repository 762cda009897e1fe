import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEFAULT_POLLING_CHANNEL, type OperationLogEntry } from '@liftlink/protocol';
import { permissionsOf } from '../../../lib/access.tsx';
import { downloadFile } from '../../../lib/download.ts';
import { http } from '../../../lib/http.ts';
import type * as HttpModule from '../../../lib/http.ts';
import type * as DownloadModule from '../../../lib/download.ts';
import type { Session } from '../../../lib/session.ts';
import { renderAt, useEnglish, userInfo } from '../../../test/render.tsx';
import OperationLogPage from './operation-log-page.tsx';

vi.mock('../../../lib/http.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof HttpModule>();
  return { ...actual, http: { get: vi.fn(), post: vi.fn() } };
});
vi.mock('../../../lib/download.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof DownloadModule>()),
  downloadFile: vi.fn(async () => undefined),
}));

const LIFT = '6f1c2a3b-0000-4000-8000-000000000001';
const entry = (
  id: number,
  action: string,
  result: string,
  detail: Record<string, unknown>,
): OperationLogEntry => ({
  id,
  ts: '2026-03-01T10:00:00.000Z',
  username: 'engineer',
  action,
  liftId: LIFT,
  deviceNo: 'LL-0001',
  result,
  detail,
});
const ENTRIES = [
  entry(1, 'manufacture.serial.writeChannel', 'ok', {
    deviceNo: 'LL-0001',
    channel: 2,
    ...DEFAULT_POLLING_CHANNEL,
    enabled: true,
  }),
  entry(2, 'lift.command', 'rejected', {
    name: 'summon',
    args: { floor: 2 },
    reason: 'overloaded',
  }),
];

function session(): Session {
  const info = userInfo('administrator');
  return { info, permissions: permissionsOf(info), routes: info.routes };
}

beforeAll(useEnglish);
beforeEach(() => {
  vi.mocked(http.get).mockImplementation(async (path: string) =>
    path === '/auth/access/operation-log'
      ? { list: ENTRIES, total: ENTRIES.length }
      : { list: [], total: 0 },
  );
});

describe('operation log page', () => {
  it('shows a factory-bench step and a command by name and summary, never keys or JSON', async () => {
    renderAt(<OperationLogPage />, { session: session() });
    const table = await screen.findByTestId('oplog-table');
    const bench = (await within(table).findByText('Polling channel written')).closest('tr')!;
    expect(
      within(bench).getByText(
        'Polling channel 2: slave 1, function 3, 10 from register 0, every 1000 ms',
      ),
    ).toBeInTheDocument();
    expect(within(bench).getByText('Done')).toBeInTheDocument();
    const command = within(table).getByText('Remote command').closest('tr')!;
    expect(
      within(command).getByText('Summon to floor 2 · The platform is overloaded'),
    ).toBeInTheDocument();
    expect(within(command).getByText('Refused')).toBeInTheDocument();
    expect(table.textContent).not.toMatch(/manufacture\.serial|lift\.command|"count"/);
  });

  it('exports in the language of the page', async () => {
    renderAt(<OperationLogPage />, { session: session() });
    await userEvent.click(await screen.findByTestId('oplog-export'));
    expect(vi.mocked(downloadFile)).toHaveBeenCalledWith(
      '/auth/access/operation-log/export',
      expect.objectContaining({ lang: 'en-US' }),
      expect.stringMatching(/^operation-log-.*\.csv$/),
    );
  });
});
