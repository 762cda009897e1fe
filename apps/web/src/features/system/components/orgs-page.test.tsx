import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { OrgView } from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';
import type * as HttpModule from '../../../lib/http.ts';
import { useEnglish } from '../../../test/render.tsx';
import { ORG, renderOrgsPage } from './orgs-test-kit.tsx';

vi.mock('../../../lib/http.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof HttpModule>();
  return { ...actual, http: { get: vi.fn(), post: vi.fn() } };
});

const MOSCOW_ORG: OrgView = { ...ORG, timeZone: 'Europe/Moscow' };

describe('organization time zones', () => {
  beforeAll(useEnglish);
  beforeEach(() => {
    vi.mocked(http.get).mockReset();
    vi.mocked(http.post).mockReset();
    vi.mocked(http.get).mockResolvedValue({ list: [MOSCOW_ORG] });
    vi.mocked(http.post).mockResolvedValue({});
  });

  it('shows each organization’s time zone and changes it in the edit dialog', async () => {
    renderOrgsPage(['query', 'add', 'edit']);
    expect(await screen.findByText('Europe/Moscow')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Time zone' })).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText('Installation windows of firmware updates are in this local time'),
    ).toBeInTheDocument();
    const select = within(dialog).getByRole('combobox', { name: 'Time zone' });
    await user.click(select);
    await user.type(select, 'Shanghai');
    await user.click(await screen.findByTitle(/^Asia\/Shanghai \(UTC\+08:00\)$/));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(http.post).toHaveBeenCalledTimes(1));
    expect(vi.mocked(http.post).mock.calls[0]!.slice(0, 2)).toEqual([
      '/auth/access/system/orgs/update',
      { id: ORG.id, name: 'Metro Lifts', timeZone: 'Asia/Shanghai' },
    ]);
  });

  it('creates an organization in UTC unless another zone is chosen', async () => {
    renderOrgsPage(['query', 'add', 'edit']);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /New organization/ }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByRole('textbox', { name: 'Organization name' }), 'Acme');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(http.post).toHaveBeenCalledTimes(1));
    expect(vi.mocked(http.post).mock.calls[0]!.slice(0, 2)).toEqual([
      '/auth/access/system/orgs/create',
      { name: 'Acme', kind: 'operator', timeZone: 'UTC' },
    ]);
  });
});
