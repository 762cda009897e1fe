export { pushLive } from './control-test-live.ts';

/**
 * What the commands panel's tests share: a fake server behind the mocked `http` (answers by path), and
 * the panel rendered for a signed-in user. Each test file mocks the modules itself:
 *
 *   vi.mock('../../../lib/live/use-live.ts', async () => (await import('./control-test-live.ts')).liveMock);
 *   vi.mock('../../../lib/http.ts', async (importOriginal) => ({
 *     ...(await importOriginal<typeof HttpModule>()), http: { get: vi.fn(), post: vi.fn() } }));
 */
import type { ComponentProps, ReactNode } from 'react';
import { vi } from 'vitest';
import { render } from '@testing-library/react';
import type { ApprovalView, LeaseState, LeaseView } from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';
import { InApp, userInfo } from '../../../test/render.tsx';
import { CommandsPanel } from './commands-panel.tsx';

export const LIFT = '6f1c2a3b-0000-4000-8000-000000000001';
const me = userInfo('operator', { name: 'Olga' });
export const ME = me.id;
export const OTHER = '33333333-3333-4333-8333-333333333333';
export const KEY = /^[A-Za-z0-9_-]{16,64}$/;
export const path = (route: string) => `/auth/access/lift/${route}`;

export function leaseOf(holderId: string, holderName: string, epoch = 1): LeaseView {
  const now = Date.now();
  return {
    liftId: LIFT,
    epoch,
    holderId,
    holderName,
    acquiredAt: new Date(now).toISOString(),
    expiresAt: new Date(now + 60_000).toISOString(),
  };
}

export const mine = (epoch = 1): LeaseState => ({
  lease: leaseOf(ME, 'Olga', epoch),
  localUntil: null,
});
export const held = (name = 'Alice'): LeaseState => ({
  lease: leaseOf(OTHER, name, 7),
  localUntil: null,
});
export const free = (): LeaseState => ({ lease: null, localUntil: null });

export function approvalOf(extra: Partial<ApprovalView> = {}): ApprovalView {
  const now = Date.now();
  return {
    id: '44444444-4444-4444-8444-444444444444',
    liftId: LIFT,
    command: 'aging',
    args: { target: 'overall' },
    commandClass: 'aging',
    reason: 'Yearly check',
    state: 'pending',
    requesterId: OTHER,
    requesterName: 'Bob',
    requestedAt: new Date(now).toISOString(),
    expiresAt: new Date(now + 10 * 60_000).toISOString(),
    deciderId: null,
    deciderName: null,
    decidedAt: null,
    commandId: null,
    commandState: null,
    commandReason: null,
    ...extra,
  };
}

type Handler = (body: Record<string, unknown>) => unknown;

/**
 * The server for one test: the lease and approvals it reads, and the answer of each POST
 * route (a missing one fails the call as an unexpected request).
 */
export function serve(server: {
  lease?: LeaseState;
  approvals?: ApprovalView[];
  post?: Record<string, Handler>;
}): void {
  vi.mocked(http.get).mockImplementation(async (url: string) => {
    if (url === path('lease')) return server.lease ?? free();
    if (url === path('approval/list')) return { list: server.approvals ?? [] };
    return { list: [] };
  });
  vi.mocked(http.post).mockImplementation(async (url: string, body?: unknown) => {
    const route = url.replace(path(''), '');
    const handler = server.post?.[route];
    if (!handler) throw new Error(`unexpected POST ${url}`);
    return handler(body as Record<string, unknown>);
  });
}

/** The POST calls made to one route, as [body, options]. */
export function postsTo(route: string): [Record<string, unknown>, unknown][] {
  return vi
    .mocked(http.post)
    .mock.calls.filter(([url]) => url === path(route))
    .map(([, body, options]) => [body as Record<string, unknown>, options]);
}

function Wrapper({ children }: { children: ReactNode }) {
  return <InApp session={{ info: me, permissions: [], routes: [] }}>{children}</InApp>;
}

export function renderPanel(props: Partial<ComponentProps<typeof CommandsPanel>> = {}) {
  return render(
    <CommandsPanel
      liftId={LIFT}
      liftName="Station"
      floors={2}
      online
      hasDeviceNo
      status={null}
      {...props}
    />,
    { wrapper: Wrapper },
  );
}
