import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  BUILT_IN_ROLES,
  groupConfigPreviewRequestSchema,
  groupConfigSendRequestSchema,
  type GroupConfigPreviewLift,
  type GroupConfigSend,
  type LiftLiveMessage,
  type Permission,
} from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';
import type * as HttpModule from '../../../lib/http.ts';
import { withTexts } from '../../../lib/i18n/language.ts';
import { renderAt, useEnglish, userInfo } from '../../../test/render.tsx';
import GroupConfigPage from './group-config-page.tsx';

vi.mock('../../../lib/http.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof HttpModule>();
  return { ...actual, http: { get: vi.fn(), post: vi.fn() } };
});

// The live socket as the page sees it: the test pushes what the server would.
const live = vi.hoisted(() => ({ listeners: new Map<string, (m: unknown) => void>() }));
vi.mock('../../../lib/live/use-live.ts', () => ({
  liveClient: {
    subscribeLift: (liftId: string, listener: (m: unknown) => void) => {
      live.listeners.set(liftId, listener);
      return () => live.listeners.delete(liftId);
    },
  },
}));
function pushLive(message: LiftLiveMessage) {
  act(() => live.listeners.get(message.liftId)?.(message));
}

const BASE = '/auth/access/lift/group-config';
const A = '6f1c2a3b-0000-4000-8000-000000000001';
const B = '6f1c2a3b-0000-4000-8000-000000000002';
const C = '6f1c2a3b-0000-4000-8000-000000000003';
const GROUP = '7a1c2a3b-0000-4000-8000-000000000009';

const previewLift = (
  liftId: string,
  deviceNo: string,
  extra: Partial<GroupConfigPreviewLift> = {},
): GroupConfigPreviewLift => ({
  liftId,
  deviceNo,
  alias: null,
  kind: 'inclinedStraightRack',
  firmware: '1.4.2',
  site: 'North',
  online: true,
  version: 2,
  current: { voiceLanguage: 'zh' },
  next: { voiceLanguage: 'en' },
  changed: ['voiceLanguage'],
  issues: [],
  forbidden: [],
  ...extra,
});
const PREVIEW = [
  previewLift(A, 'LL-0001'),
  previewLift(B, 'LL-0002', { version: 5 }),
  previewLift(C, 'LL-0003', { online: false }),
];
const SENT: GroupConfigSend = {
  id: GROUP,
  createdAt: '2026-11-25T05:00:00.000Z',
  username: 'operator',
  changes: { voiceLanguage: 'en' },
  counts: { pending: 2, sent: 0, done: 0, refused: 0, offline: 1, skipped: 0 },
  selection: { deviceNos: ['LL-0001', 'LL-0002', 'LL-0003'] },
  lifts: [
    {
      liftId: A,
      deviceNo: 'LL-0001',
      alias: null,
      version: 2,
      commandId: null,
      state: 'pending',
      reason: null,
      answeredAt: null,
    },
    {
      liftId: B,
      deviceNo: 'LL-0002',
      alias: null,
      version: 5,
      commandId: null,
      state: 'pending',
      reason: null,
      answeredAt: null,
    },
    {
      liftId: C,
      deviceNo: 'LL-0003',
      alias: null,
      version: 2,
      commandId: null,
      state: 'offline',
      reason: null,
      answeredAt: '2026-11-25T05:00:00.000Z',
    },
  ],
};

function serve() {
  vi.mocked(http.get).mockImplementation(async (url: string) => {
    if (url === `${BASE}/options`)
      return { kinds: ['inclinedStraightRack'], firmware: ['1.4.2'], sites: ['North'], orgs: [] };
    if (url === `${BASE}/list`) return { list: [] };
    if (url === `${BASE}/get`) return SENT;
    throw new Error(`unexpected GET ${url}`);
  });
  vi.mocked(http.post).mockImplementation(async (url: string) => {
    if (url === `${BASE}/preview`) return { lifts: PREVIEW };
    if (url === `${BASE}/send`) return SENT;
    throw new Error(`unexpected POST ${url}`);
  });
}

function renderAs(role: 'operator' | 'viewer') {
  const permissions = BUILT_IN_ROLES[role].permissions as readonly Permission[];
  renderAt(<GroupConfigPage />, {
    path: '/lift/group-config',
    session: { info: userInfo(role), permissions: [...permissions], routes: [] },
  });
}

const posted = (url: string) =>
  vi
    .mocked(http.post)
    .mock.calls.filter(([u]) => u === url)
    .map(([, body]) => body);

describe('group configuration page', () => {
  beforeAll(async () => {
    await useEnglish();
    await withTexts(['groupConfig'], async () => undefined)();
  });
  beforeEach(() => {
    vi.mocked(http.get).mockReset();
    vi.mocked(http.post).mockReset();
    live.listeners.clear();
  });

  it('selects by pasted numbers, changes a field, reviews each lift, sends once and shows the answers live', async () => {
    const user = userEvent.setup();
    serve();
    renderAs('operator');
    expect(await screen.findByText('No group change sent yet')).toBeInTheDocument();
    const next = screen.getByTestId('group-next-changes');
    expect(next).toBeDisabled();
    await user.type(screen.getByTestId('group-select-deviceNos'), 'll-0001, LL-0002{enter}LL-0003');
    await waitFor(() => expect(next).toBeEnabled());
    await user.click(next);

    await user.type(screen.getByRole('combobox', { name: 'Fields to change' }), 'Voice');
    await user.click(await screen.findByTitle('Voice system language'));
    const language = await screen.findByRole('combobox', { name: 'Voice system language' });
    await user.click(language);
    await user.click(await screen.findByTitle('English'));
    await user.click(screen.getByTestId('group-review'));

    const summary = await screen.findByTestId('group-review-summary');
    expect(summary).toHaveTextContent('3 lifts selected: 2 will be sent, 1 will not');
    expect(screen.getByTestId('group-outcome-LL-0003')).toHaveTextContent('Offline: not sent');
    const request = posted(`${BASE}/preview`)[0];
    expect(groupConfigPreviewRequestSchema.parse(request)).toEqual({
      selection: { deviceNos: ['LL-0001', 'LL-0002', 'LL-0003'] },
      changes: { voiceLanguage: 'en' },
    });

    await user.click(screen.getByTestId('group-send'));
    await user.click(await screen.findByTestId('group-send-confirm'));
    await screen.findByTestId('group-results');
    const sent = posted(`${BASE}/send`);
    expect(sent).toHaveLength(1);
    const body = groupConfigSendRequestSchema.parse(sent[0]);
    expect(body.versions).toEqual({ [A]: 2, [B]: 5, [C]: 2 });
    expect(body.changes).toEqual({ voiceLanguage: 'en' });

    expect(screen.getByTestId('group-state-LL-0003')).toHaveTextContent('Offline');
    // The results read the send once when shown; the live answers come after.
    await waitFor(() =>
      expect(vi.mocked(http.get).mock.calls.some(([u]) => u === `${BASE}/get`)).toBe(true),
    );
    await act(() => new Promise((r) => setTimeout(r, 50)));
    pushLive({ type: 'groupConfig', groupId: GROUP, liftId: A, state: 'done', reason: null });
    pushLive({ type: 'groupConfig', groupId: GROUP, liftId: B, state: 'refused', reason: 'busy' });
    // The query cache tells the page on its next tick.
    await waitFor(() =>
      expect(screen.getByTestId('group-state-LL-0001')).toHaveTextContent('Done'),
    );
    const refused = screen.getByTestId('group-state-LL-0002');
    expect(refused).toHaveTextContent('Refused');
    expect(refused).toHaveTextContent('The lift is busy with another operation');
    expect(within(screen.getByTestId('group-counts')).getByText('Done: 1')).toBeInTheDocument();
    expect(screen.getByText('Every lift has its outcome')).toBeInTheDocument();
  });

  it('lets a viewer review but offers no send', async () => {
    const user = userEvent.setup();
    serve();
    renderAs('viewer');
    expect(
      await screen.findByText('You may review a group change but not send configuration.'),
    ).toBeInTheDocument();
    await user.type(screen.getByTestId('group-select-deviceNos'), 'LL-0001');
    await user.click(screen.getByTestId('group-next-changes'));
    await user.type(screen.getByRole('combobox', { name: 'Fields to change' }), 'Voice');
    await user.click(await screen.findByTitle('Voice system language'));
    await user.click(screen.getByTestId('group-review'));
    await screen.findByTestId('group-review-summary');
    expect(screen.queryByTestId('group-send')).toBeNull();
  });

  it('refuses a pasted value that is no device number', async () => {
    const user = userEvent.setup();
    serve();
    renderAs('operator');
    await user.type(await screen.findByTestId('group-select-deviceNos'), 'LL-0001, bad!');
    expect(await screen.findByText('Not a device number: BAD!')).toBeInTheDocument();
  });
});
