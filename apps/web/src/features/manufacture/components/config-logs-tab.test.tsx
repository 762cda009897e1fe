import { beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { http } from '../../../lib/http.ts';
import type * as HttpModule from '../../../lib/http.ts';
import { renderAt, useEnglish } from '../../../test/render.tsx';
import { ConfigLogsTab } from './config-logs-tab.tsx';

vi.mock('../../../lib/http.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof HttpModule>();
  return { ...actual, http: { get: vi.fn(), post: vi.fn() } };
});
vi.mock('./bench-context.tsx', () => ({ useBench: () => ({ lift: { id: 'lift-1' } }) }));

beforeAll(useEnglish);

describe('configuration log on the bench', () => {
  it('shows the result in the user language, not the stored word', async () => {
    vi.mocked(http.get).mockResolvedValue({
      list: [
        {
          id: 1,
          ts: '2026-03-01T10:00:00.000Z',
          username: 'engineer',
          source: 'cloud',
          commandId: 'c1',
          version: 3,
          before: null,
          after: null,
          result: 'applied',
        },
      ],
      total: 1,
    });
    renderAt(<ConfigLogsTab />);
    const row = (await screen.findByText('engineer')).closest('tr')!;
    expect(within(row).getByText('Applied')).toBeInTheDocument();
    expect(within(row).queryByText('applied')).toBeNull();
  });
});
