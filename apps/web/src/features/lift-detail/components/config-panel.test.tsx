import type { ReactNode } from 'react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultConfig, type LiftInfo } from '@liftlink/protocol';
import { ApiError, http } from '../../../lib/http.ts';
import type * as HttpModule from '../../../lib/http.ts';
import { InApp, useEnglish } from '../../../test/render.tsx';
import { type Session } from '../../../lib/session.ts';
import { ConfigPanel } from './config-panel.tsx';
import { liftListItem } from '../../../test/lift-fixtures.ts';

vi.mock('../../../lib/http.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof HttpModule>();
  return {
    ...actual,
    http: {
      get: vi.fn(async () => ({ list: [], total: 0 })),
      post: vi.fn(),
    },
  };
});

const post = vi.mocked(http.post);
/** The form of some sixty fields renders slowly in jsdom on a busy machine. */
const SLOW = { timeout: 15_000 };
const config = defaultConfig('inclinedStraightRack', 2);
const info: LiftInfo = {
  lift: {
    ...liftListItem({ id: '6f1c2a3b-0000-4000-8000-000000000001', alias: 'Station' }),
    iotInfo: {},
    configVersion: 3,
    onlineSince: null,
  },
  status: null,
  config,
  stats: { onlineMsTotal: 0, onlineMsToday: 0, tripsTotal: 0, tripsToday: 0 },
  alarmDevice: null,
  approvalClasses: [],
};

// What the panel may do comes with the lift (info.lift.access), not from the session.
const session = { info: {}, permissions: [], routes: [] } as unknown as Session;

function Wrapper({ children }: { children: ReactNode }) {
  return <InApp session={session}>{children}</InApp>;
}

async function editField(user: ReturnType<typeof userEvent.setup>, label: string, value: string) {
  const input = screen.getByLabelText(label);
  await user.clear(input);
  if (value) await user.type(input, value);
}

const writes = () =>
  post.mock.calls.filter(([path]) => String(path).endsWith('/run/setting/update'));

// A form of some sixty fields renders slowly in jsdom on a busy machine.
describe('configuration panel', () => {
  beforeAll(useEnglish);
  beforeEach(() => post.mockReset());

  it('is read-only until Edit, and a wrong value shows its message and sends nothing', async () => {
    const user = userEvent.setup();
    render(<ConfigPanel info={info} online />, { wrapper: Wrapper });
    expect(screen.getByText('Editing disabled')).toBeInTheDocument();
    expect(screen.getByLabelText('Rapid section speed')).toBeDisabled();

    await user.click(screen.getByRole('button', { name: /Edit/ }));
    expect(screen.getByText('Editing')).toBeInTheDocument();
    await editField(user, 'Rapid section speed', '999');
    expect(await screen.findByText('Must be at or below 150', undefined, SLOW)).toBeInTheDocument();
    await editField(user, 'Rated load', '');
    expect(await screen.findByText('Input cannot be empty', undefined, SLOW)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /Review and send/ }));
    await waitFor(
      () => expect(screen.getByText('Must be at or below 150')).toBeInTheDocument(),
      SLOW,
    );
    expect(screen.queryByText('Check the changes before sending')).not.toBeInTheDocument();
    expect(writes()).toHaveLength(0);
  });

  it('shows the difference, asks to reconfigure a configured lift, then sends', async () => {
    const user = userEvent.setup();
    post.mockRejectedValueOnce(
      new ApiError(409, 'config.reconfigure', 'configured', { version: 3 }),
    );
    post.mockResolvedValueOnce({ commandId: 'c1', state: 'done', reason: null, reasonText: null });
    render(<ConfigPanel info={info} online />, { wrapper: Wrapper });
    await user.click(screen.getByRole('button', { name: /Edit/ }));
    await editField(user, 'Rapid section speed', '100');
    await user.click(screen.getByRole('button', { name: /Review and send/ }));

    const dialog = await screen.findByRole(
      'dialog',
      { name: 'Check the changes before sending' },
      SLOW,
    );
    expect(within(dialog).getByText('These 1 fields will change:')).toBeInTheDocument();
    expect(within(dialog).getByText('Rapid section speed')).toBeInTheDocument();
    expect(within(dialog).getByText('120 mm/s')).toBeInTheDocument();
    expect(within(dialog).getByText('100 mm/s')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: /Send to the lift/ }));

    await user.click(await screen.findByRole('button', { name: 'Reconfigure' }, SLOW));
    await waitFor(() => expect(writes()).toHaveLength(2), SLOW);
    expect(writes()[0]![1]).toEqual({
      liftId: info.lift.id,
      config: { ...config, rapidSpeed: 100 },
      version: 3,
    });
    expect(writes()[1]![1]).toMatchObject({ version: 3, confirmReconfigure: true });
    expect(await screen.findByText('Modification successful', undefined, SLOW)).toBeInTheDocument();
    expect(screen.getByText('Saved')).toBeInTheDocument();
  });

  it("puts the lift's refusal issues on the fields", async () => {
    const user = userEvent.setup();
    post.mockRejectedValueOnce(
      new ApiError(409, 'lift.refused', 'The configuration is not valid', {
        commandId: 'c2',
        state: 'rejected',
        reason: 'configInvalid',
        issues: [{ path: 'slowSpeed', message: 'validation.max', params: { max: 40 } }],
      }),
    );
    render(<ConfigPanel info={{ ...info, lift: { ...info.lift, configVersion: 0 } }} online />, {
      wrapper: Wrapper,
    });
    await user.click(screen.getByRole('button', { name: /Edit/ }));
    await editField(user, 'Slow section speed', '50');
    await user.click(screen.getByRole('button', { name: /Review and send/ }));
    const dialog = await screen.findByRole(
      'dialog',
      { name: 'Check the changes before sending' },
      SLOW,
    );
    await user.click(within(dialog).getByRole('button', { name: /Send to the lift/ }));
    expect(await screen.findByText('Must be at or below 40', undefined, SLOW)).toBeInTheDocument();
    expect(
      await screen.findByText(
        'Modification failed: The configuration is not valid',
        undefined,
        SLOW,
      ),
    ).toBeInTheDocument();
  });
  it("shows the controls the server allows on this lift, not the role's", () => {
    // The session holds no permissions at all; the lift's answer alone decides.
    const readOnly = {
      ...info,
      lift: {
        ...info.lift,
        access: { allowed: ['liftConfig.get' as const], configRole: 'operator' as const },
      },
    };
    const { unmount } = render(<ConfigPanel info={readOnly} online />, { wrapper: Wrapper });
    expect(screen.getByTestId('config-read')).toBeInTheDocument();
    expect(screen.queryByTestId('config-edit')).toBeNull();
    expect(screen.queryByTestId('config-export')).toBeNull();
    expect(screen.queryByTestId('config-import')).toBeNull();
    unmount();
    render(<ConfigPanel info={info} online />, { wrapper: Wrapper });
    expect(screen.getByTestId('config-edit')).toBeInTheDocument();
    expect(screen.getByTestId('config-export')).toBeInTheDocument();
    expect(screen.getByTestId('config-import')).toBeInTheDocument();
  });
});
