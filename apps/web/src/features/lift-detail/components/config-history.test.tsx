import { beforeAll, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ConfigLogEntry } from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';
import type * as HttpModule from '../../../lib/http.ts';
import { useEnglish, InApp } from '../../../test/render.tsx';
import { ConfigHistory } from './config-history.tsx';

const IOT_ENTRY: ConfigLogEntry = {
  id: 7,
  ts: '2026-11-24T10:00:00.000Z',
  username: 'engineer',
  source: 'iot',
  commandId: null,
  version: null,
  before: { apn: 'cmnet', signal: -90, carrier: 'China Mobile' },
  after: { apn: 'cmiot', signal: -71, carrier: 'China Mobile' },
  result: 'applied',
};

vi.mock('../../../lib/http.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof HttpModule>();
  return {
    ...actual,
    http: { get: vi.fn(async () => ({ list: [IOT_ENTRY], total: 1 })), post: vi.fn() },
  };
});

describe('configuration history', () => {
  beforeAll(useEnglish);

  it('names an IoT change and its fields, and lists before and after in words', async () => {
    const user = userEvent.setup();
    render(<ConfigHistory liftId="6f1c2a3b-0000-4000-8000-000000000001" />, { wrapper: InApp });
    const table = await screen.findByTestId('config-history');
    expect(await within(table).findByText('IoT information: APN, Signal')).toBeInTheDocument();
    expect(within(table).getByText('engineer')).toBeInTheDocument();
    expect(vi.mocked(http.get)).toHaveBeenCalled();
    await user.click(within(table).getByRole('button', { name: /expand/i }));
    expect(await screen.findByText('-90 dBm')).toBeInTheDocument();
    expect(screen.getByText('-71 dBm')).toBeInTheDocument();
    expect(screen.getByText('cmiot')).toBeInTheDocument();
    expect(screen.queryByText('Carrier')).toBeNull();
  });
});
