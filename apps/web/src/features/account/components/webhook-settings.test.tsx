import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  BUILT_IN_ROLES,
  type Permission,
  type WebhookDelivery,
  type WebhookView,
} from '@liftlink/protocol';
import { ApiError, http } from '../../../lib/http.ts';
import type * as HttpModule from '../../../lib/http.ts';
import { renderAt, useEnglish, userInfo } from '../../../test/render.tsx';
import AccountSettingsPage from './account-settings-page.tsx';

vi.mock('../../../lib/http.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof HttpModule>();
  return { ...actual, http: { get: vi.fn(), post: vi.fn() } };
});

const HOOK: WebhookView = {
  id: '33333333-3333-4333-8333-333333333333',
  orgId: '44444444-4444-4444-8444-444444444444',
  url: 'https://tickets.example.com/liftlink',
  description: 'Ticketing',
  eventTypes: ['alert.raised'],
  enabled: true,
  secretPrefix: 'whsec_AbCd',
  createdAt: '2026-11-24T20:00:00.000Z',
  updatedAt: '2026-11-24T20:00:00.000Z',
};
const SECRET = 'whsec_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcd';
const DELIVERY: WebhookDelivery = {
  id: '9',
  eventId: 'e9',
  eventType: 'alert.raised',
  occurredAt: '2026-11-24T21:00:00.000Z',
  state: 'delivered',
  attempts: 3,
  nextAttemptAt: null,
  lastStatusCode: 200,
  lastError: null,
  lastDurationMs: 12,
  deliveredAt: '2026-11-24T21:00:31.000Z',
  attemptLog: [
    { at: '2026-11-24T21:00:00.000Z', statusCode: 500, error: null, durationMs: 10 },
    { at: '2026-11-24T21:00:10.000Z', statusCode: null, error: 'ECONNREFUSED', durationMs: 2 },
    { at: '2026-11-24T21:00:31.000Z', statusCode: 200, error: null, durationMs: 12 },
  ],
};

function serve(list: WebhookView[]) {
  vi.mocked(http.get).mockImplementation(async (url: string) => {
    if (url === '/auth/access/webhooks') return { list };
    if (url === '/auth/access/webhooks/deliveries') return { list: [DELIVERY], total: 1 };
    throw new Error(`unexpected GET ${url}`);
  });
}

function renderAs(role: 'operator' | 'viewer') {
  const permissions = BUILT_IN_ROLES[role].permissions as readonly Permission[];
  renderAt(<AccountSettingsPage />, {
    path: '/account/settings/webhooks',
    session: { info: userInfo(role), permissions: [...permissions], routes: [] },
  });
}

describe('webhook settings', () => {
  beforeAll(useEnglish);
  beforeEach(() => {
    vi.mocked(http.get).mockReset();
    vi.mocked(http.post).mockReset();
  });

  it('lists endpoints without their secret, adds one and shows its secret once', async () => {
    serve([HOOK]);
    renderAs('operator');
    expect(await screen.findByText(HOOK.url)).toBeInTheDocument();
    expect(screen.getByText('whsec_AbCd…')).toBeInTheDocument();

    const user = userEvent.setup();
    vi.mocked(http.post).mockResolvedValueOnce({ webhook: { ...HOOK, id: 'new' }, secret: SECRET });
    await user.click(screen.getByTestId('webhook-add'));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Address'), 'https://pager.example.com/in');
    await user.click(within(dialog).getByLabelText('Alert acknowledged'));
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));

    await waitFor(() => expect(http.post).toHaveBeenCalledTimes(1));
    expect(vi.mocked(http.post).mock.calls[0]!.slice(0, 2)).toEqual([
      '/auth/access/webhooks/create',
      { url: 'https://pager.example.com/in', eventTypes: ['alert.raised', 'alert.acknowledged'] },
    ]);
    expect(await screen.findByTestId('webhook-secret')).toHaveTextContent(SECRET);
    expect(
      screen.getByText('Copy it now into the receiving system: it is shown only this once.'),
    ).toBeInTheDocument();
  });

  it('shows a refused address translated at the field, and keeps the form open', async () => {
    serve([]);
    renderAs('operator');
    expect(await screen.findByText('No endpoints yet')).toBeInTheDocument();
    const user = userEvent.setup();
    vi.mocked(http.post).mockRejectedValueOnce(new ApiError(400, 'webhook.badUrl', 'bad url'));
    await user.click(screen.getByTestId('webhook-add'));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Address'), 'http://tickets.example.com/');
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(
      await within(dialog).findByText(
        "The address must use https (http only for this computer's own addresses) and must not contain a user name or password",
      ),
    ).toBeInTheDocument();
    expect(screen.queryByTestId('webhook-secret')).not.toBeInTheDocument();
  });

  it("test-sends and shows the receiver's answer; the delivery log lists the attempts", async () => {
    serve([HOOK]);
    renderAs('operator');
    const user = userEvent.setup();
    vi.mocked(http.post).mockResolvedValueOnce({
      ...DELIVERY,
      eventType: 'webhook.test',
      attempts: 1,
      lastStatusCode: 503,
      state: 'failed',
    });
    await user.click(await screen.findByTestId(`webhook-test-${HOOK.id}`));
    expect(vi.mocked(http.post).mock.calls[0]!.slice(0, 2)).toEqual([
      '/auth/access/webhooks/test',
      { id: HOOK.id },
    ]);
    expect(await screen.findByText('Not delivered: 503')).toBeInTheDocument();

    await user.click(screen.getByText('Delivery log'));
    const log = await screen.findByTestId('webhook-log');
    expect(await within(log).findByText('Delivered')).toBeInTheDocument();
    await user.click(log.querySelector('.ant-table-row-expand-icon')!);
    expect(await within(log).findByText('ECONNREFUSED')).toBeInTheDocument();
    expect(within(log).getByText('500')).toBeInTheDocument();
  });

  it('is not offered to a user who may not edit lift configuration', async () => {
    serve([HOOK]);
    renderAs('viewer');
    // The address falls back to the basic settings.
    expect((await screen.findAllByText('Basic settings')).length).toBeGreaterThan(0);
    expect(screen.queryByTestId('webhook-settings')).not.toBeInTheDocument();
    expect(screen.queryByText('Webhooks')).not.toBeInTheDocument();
    expect(http.get).not.toHaveBeenCalledWith(
      '/auth/access/webhooks',
      undefined,
      expect.anything(),
    );
  });
});
