import { act } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CONTROL_LEASE_RENEW_MS } from '@liftlink/protocol';
import { ApiError, http } from '../../../lib/http.ts';
import type * as HttpModule from '../../../lib/http.ts';
import { useEnglish } from '../../../test/render.tsx';
import {
  LIFT,
  ME,
  OTHER,
  free,
  held,
  leaseOf,
  mine,
  postsTo,
  pushLive,
  renderPanel,
  serve,
} from './control-test-kit.tsx';

vi.mock(
  '../../../lib/live/use-live.ts',
  async () => (await import('./control-test-live.ts')).liveMock,
);
vi.mock('../../../lib/http.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof HttpModule>();
  return { ...actual, http: { get: vi.fn(), post: vi.fn() } };
});

const holder = () => screen.getByTestId('control-holder');
const summon = () => screen.getByRole('button', { name: 'Summon to floor 1' });

describe('control bar', () => {
  beforeAll(useEnglish);
  beforeEach(() => {
    vi.mocked(http.post).mockReset();
    vi.mocked(http.get).mockReset();
  });
  afterEach(() => vi.useRealTimers());

  it('takes control, opens the leased controls, and releases it', async () => {
    const user = userEvent.setup();
    serve({
      lease: free(),
      post: { 'lease/take': () => mine(3), 'lease/release': () => free() },
    });
    renderPanel();
    await waitFor(() => expect(holder()).toHaveTextContent('Nobody controls this lift'));
    expect(summon()).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Pause' })).toBeEnabled();

    await user.click(screen.getByTestId('control-take'));
    expect(postsTo('lease/take')).toEqual([[{ liftId: LIFT, takeOver: false }, undefined]]);
    await waitFor(() => expect(holder()).toHaveTextContent('You control this lift'));
    expect(summon()).toBeEnabled();

    await user.click(screen.getByTestId('control-release'));
    expect(postsTo('lease/release')).toEqual([[{ liftId: LIFT, epoch: 3 }, undefined]]);
    await waitFor(() => expect(holder()).toHaveTextContent('Nobody controls this lift'));
    expect(summon()).toBeDisabled();
  });

  it('renews a lease it took while the page is open, and gives it back when the page goes', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    serve({
      lease: free(),
      post: {
        'lease/take': () => mine(5),
        'lease/renew': () => mine(5),
        'lease/release': () => free(),
      },
    });
    const view = renderPanel();
    await user.click(await screen.findByTestId('control-take'));
    await waitFor(() => expect(holder()).toHaveAttribute('data-holder', 'me'));
    expect(postsTo('lease/renew')).toHaveLength(0);
    await act(async () => vi.advanceTimersByTime(CONTROL_LEASE_RENEW_MS));
    expect(postsTo('lease/renew')).toEqual([[{ liftId: LIFT, epoch: 5 }, undefined]]);

    view.unmount();
    expect(postsTo('lease/release')).toEqual([
      [
        { liftId: LIFT, epoch: 5 },
        { keepalive: true, quiet: true },
      ],
    ]);
  });

  it('leaves a lease of the same user taken in another window alone', async () => {
    serve({ lease: mine(2) });
    const view = renderPanel();
    await waitFor(() => expect(holder()).toHaveAttribute('data-holder', 'me'));
    view.unmount();
    expect(postsTo('lease/release')).toEqual([]);
  });

  it('offers "Take over" only to users allowed liftControl.edit, and asks first', async () => {
    const user = userEvent.setup();
    serve({ lease: held('Alice'), post: { 'lease/take': () => mine(8) } });
    const first = renderPanel();
    await waitFor(() => expect(holder()).toHaveTextContent('Alice controls this lift'));
    expect(screen.queryByTestId('control-takeover')).toBeNull();
    first.unmount();

    renderPanel({ canTakeOver: true });
    await user.click(await screen.findByTestId('control-takeover'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/Alice controls the lift "Station" now/)).toBeInTheDocument();
    await user.click(within(dialog).getByTestId('control-takeover-confirm'));
    expect(postsTo('lease/take')).toEqual([[{ liftId: LIFT, takeOver: true }, undefined]]);
    await waitFor(() => expect(holder()).toHaveAttribute('data-holder', 'me'));
  });

  it("shows why taking control was refused, with the holder's name and advice", async () => {
    const user = userEvent.setup();
    serve({
      lease: free(),
      post: {
        'lease/take': () => {
          throw new ApiError(409, 'lease.held', 'held', {
            holderName: 'Alice',
            expiresAt: new Date().toISOString(),
          });
        },
      },
    });
    renderPanel();
    await user.click(await screen.findByTestId('control-take'));
    expect(await screen.findByTestId('control-error')).toHaveTextContent(
      'Alice controls this lift',
    );
    expect(screen.getByTestId('control-error-advice')).toHaveTextContent(
      'Wait until they release control, or take over if you are allowed to.',
    );
  });

  it('tells the holder who took over, and disables the leased controls', async () => {
    serve({ lease: mine(4) });
    renderPanel();
    await waitFor(() => expect(summon()).toBeEnabled());
    pushLive({
      type: 'lease',
      liftId: LIFT,
      lease: leaseOf(OTHER, 'Bob', 5),
      localUntil: null,
      ended: 'takenOver',
      endedHolderId: ME,
    });
    expect(screen.getByTestId('control-notice')).toHaveTextContent(
      'Bob took over control of this lift.',
    );
    await waitFor(() => expect(holder()).toHaveTextContent('Bob controls this lift'));
    expect(summon()).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Pause' })).toBeEnabled();
  });

  it('after local use says the lift is in use on site until when, counting down', async () => {
    serve({ lease: mine(4) });
    renderPanel();
    await waitFor(() => expect(summon()).toBeEnabled());
    const until = new Date(Date.now() + 30_000).toISOString();
    pushLive({
      type: 'lease',
      liftId: LIFT,
      lease: null,
      localUntil: until,
      ended: 'localControl',
      endedHolderId: ME,
    });
    expect(screen.getByTestId('control-notice')).toHaveTextContent(
      'The lift was used on site, so your control ended.',
    );
    await waitFor(() =>
      expect(screen.getByTestId('control-local')).toHaveTextContent(
        /In use on site: remote control is paused until \d\d:\d\d:\d\d \((30|29|28) s\)/,
      ),
    );
    expect(screen.getByTestId('control-take')).toBeDisabled();
    expect(summon()).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Stop aging' })).toBeEnabled();
  });

  it('says nothing to others when a lease ends, but shows the new state', async () => {
    serve({ lease: held('Alice') });
    renderPanel();
    await waitFor(() => expect(holder()).toHaveTextContent('Alice controls this lift'));
    pushLive({
      type: 'lease',
      liftId: LIFT,
      lease: null,
      localUntil: null,
      ended: 'released',
      endedHolderId: OTHER,
    });
    await waitFor(() => expect(holder()).toHaveTextContent('Nobody controls this lift'));
    expect(screen.queryByTestId('control-notice')).toBeNull();
  });
});
