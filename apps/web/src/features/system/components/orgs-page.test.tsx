import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { OrgView, Permission } from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';
import type * as HttpModule from '../../../lib/http.ts';
import { renderAt, useEnglish, userInfo } from '../../../test/render.tsx';
import OrgsPage from './orgs-page.tsx';

vi.mock('../../../lib/http.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof HttpModule>();
  return { ...actual, http: { get: vi.fn(), post: vi.fn() } };
});

const ORG: OrgView = {
  id: '77777777-7777-4777-8777-777777777777',
  name: 'Metro Lifts',
  kind: 'operator',
  timeZone: 'Europe/Moscow',
  userCount: 3,
  liftCount: 2,
};

function renderAsEditor() {
  const permissions: Permission[] = [
    { permissionId: 'org', actions: ['query', 'add', 'edit'], scope: 'all' },
  ];
  renderAt(<OrgsPage />, { session: { info: userInfo('administrator'), permissions, routes: [] } });
}

describe('organization time zones', { timeout: 30_000 }, () => {
  beforeAll(useEnglish);
  beforeEach(() => {
    vi.mocked(http.get).mockReset();
    vi.mocked(http.post).mockReset();
    vi.mocked(http.get).mockResolvedValue({ list: [ORG] });
    vi.mocked(http.post).mockResolvedValue({});
  });

  it('shows each organization’s time zone and changes it in the edit dialog', async () => {
    renderAsEditor();
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
    renderAsEditor();
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
