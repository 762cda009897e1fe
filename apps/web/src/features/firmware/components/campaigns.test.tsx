import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  DEFAULT_CAMPAIGN_PLAN,
  firmwareCampaignCreateSchema,
  type FirmwareCampaign,
  type FirmwareCampaignLift,
} from '@liftlink/protocol';
import { ApiError, http } from '../../../lib/http.ts';
import type * as HttpModule from '../../../lib/http.ts';
import { renderAt } from '../../../test/render.tsx';
import {
  campaignLiftOf,
  campaignOf,
  packageOf,
  PACKAGE_ID,
  stageOf,
} from '../model/firmware-fixtures.ts';
import FirmwarePage from './firmware-page.tsx';
import {
  adminSession,
  englishTexts,
  ME,
  readerSession,
  resetHttp,
  rows,
} from './firmware-test-kit.ts';

vi.mock('../../../lib/http.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof HttpModule>();
  return { ...actual, http: { get: vi.fn(), post: vi.fn(), upload: vi.fn() } };
});

const BASE = '/auth/access/firmware/campaigns';
const PACKAGES = '/auth/access/firmware/packages';
const PACKAGE = packageOf({ id: PACKAGE_ID, version: '2.0.0' });

function serve(campaigns: FirmwareCampaign[], lifts: FirmwareCampaignLift[] = []) {
  vi.mocked(http.get).mockImplementation(async (path: string, query?: unknown) => {
    if (path === BASE) return { list: campaigns };
    if (path === `${BASE}/get`) return campaigns.find((c) => c.id === (query as { id: string }).id);
    if (path === `${BASE}/lifts`) return { list: lifts };
    if (path === PACKAGES) return { list: [PACKAGE] };
    if (path === '/auth/access/system/orgs') return { list: [] };
    throw new Error(`unexpected GET ${path}`);
  });
}

const AT_CAMPAIGNS = '/manufacture/firmware?tab=campaigns';

async function openCampaign(c: FirmwareCampaign) {
  const user = userEvent.setup();
  await user.click(await screen.findByTestId(`campaign-open-${c.id}`));
  const drawer = await screen.findByTestId('campaign-drawer');
  return { user, drawer };
}

describe('firmware campaigns', () => {
  beforeAll(englishTexts);
  beforeEach(resetHttp);

  it('lists the campaigns with state, progress and failures', async () => {
    const list = [
      campaignOf({ state: 'awaitingApproval', stages: [stageOf(0, { size: 1, waiting: 1 })] }),
      campaignOf({
        approvedBy: { id: ME, name: 'me' },
        approvedAt: '2026-11-21T09:00:00.000Z',
        stages: [stageOf(0, { size: 2, done: 1, failed: 1 }), stageOf(1, { size: 8, done: 3 })],
        failurePercent: 20,
      }),
      campaignOf({ state: 'paused', pauseReason: 'failureThreshold', failurePercent: 50 }),
      campaignOf({ state: 'paused', pauseReason: 'manual' }),
      campaignOf({ state: 'done' }),
      campaignOf({ state: 'cancelled' }),
    ];
    serve(list);
    renderAt(<FirmwarePage />, { path: AT_CAMPAIGNS, session: readerSession(['query']) });
    await waitFor(() => expect(rows()).toHaveLength(6));
    const [awaiting, running, selfPaused, paused, done, cancelled] = rows();
    expect(within(awaiting!).getByText('Awaiting approval')).toBeInTheDocument();
    expect(within(running!).getByText('Running')).toBeInTheDocument();
    expect(within(running!).getByText('4 done · 1 failed / 10')).toBeInTheDocument();
    expect(within(running!).getByText(/20%/)).toBeInTheDocument();
    expect(within(running!).getByText(/boris · 2026-11-21/)).toBeInTheDocument();
    expect(within(running!).getByText(/me · 2026-11-21/)).toBeInTheDocument();
    expect(within(selfPaused!).getByText('Paused itself: too many failures')).toBeInTheDocument();
    expect(within(paused!).getByText('Paused by a person')).toBeInTheDocument();
    expect(within(done!).getByText('Done')).toBeInTheDocument();
    expect(within(cancelled!).getByText('Cancelled')).toBeInTheDocument();
    // Creating needs firmware.add.
    expect(screen.queryByRole('button', { name: /New campaign/ })).toBeNull();
  });

  it('says what a campaign is when there is none yet', async () => {
    serve([]);
    renderAt(<FirmwarePage />, { path: AT_CAMPAIGNS, session: adminSession() });
    const empty = await screen.findByTestId('campaign-empty');
    expect(empty).toHaveTextContent('No campaigns yet');
    expect(empty).toHaveTextContent(/offers one package to a selection of lifts in stages/);
  });

  it('shows approve disabled to the author, with why', async () => {
    const own = campaignOf({ state: 'awaitingApproval', createdBy: { id: ME, name: 'me' } });
    serve([own]);
    renderAt(<FirmwarePage />, { path: AT_CAMPAIGNS, session: adminSession() });
    const { drawer } = await openCampaign(own);
    expect(within(drawer).getByTestId('campaign-approve')).toBeDisabled();
    expect(within(drawer).getByTestId('campaign-approve-own')).toHaveTextContent(
      'Approval is given by another person',
    );
    expect(within(drawer).getByTestId('campaign-cancel')).toBeEnabled();
  });

  it('says a campaign ended because its package was withdrawn, and offers no action', async () => {
    const ended = campaignOf({ state: 'cancelled', packageState: 'withdrawn' });
    serve([ended]);
    renderAt(<FirmwarePage />, { path: AT_CAMPAIGNS, session: adminSession() });
    const { drawer } = await openCampaign(ended);
    expect(within(drawer).getByTestId('campaign-package-withdrawn')).toHaveTextContent(
      'Its package was withdrawn: nothing more is offered',
    );
    expect(within(drawer).queryByTestId('campaign-cancel')).toBeNull();
    expect(within(drawer).queryByTestId('campaign-approve')).toBeNull();
  });

  it('approves another person’s campaign; a refusal is shown translated', async () => {
    const theirs = campaignOf({ state: 'awaitingApproval' });
    serve([theirs]);
    vi.mocked(http.post)
      .mockRejectedValueOnce(new ApiError(409, 'campaign.state', 'state'))
      .mockResolvedValueOnce({ ...theirs, state: 'running' });
    renderAt(<FirmwarePage />, { path: AT_CAMPAIGNS, session: adminSession() });
    const { user, drawer } = await openCampaign(theirs);
    const approve = within(drawer).getByTestId('campaign-approve');
    expect(approve).toBeEnabled();
    await user.click(approve);
    expect(
      await screen.findByText('The campaign cannot do this in its present state'),
    ).toBeInTheDocument();
    await user.click(approve);
    await waitFor(() => expect(http.post).toHaveBeenCalledTimes(2));
    expect(vi.mocked(http.post).mock.calls[1]!.slice(0, 2)).toEqual([
      `${BASE}/approve`,
      { id: theirs.id },
    ]);
    expect(await screen.findByText('Approved: the campaign starts')).toBeInTheDocument();
  });

  it('shows the stages and lifts with reasons in the user’s language; cancel asks first', async () => {
    const running = campaignOf({
      stages: [
        stageOf(0, { size: 1, done: 1, startedAt: '2026-11-21T10:00:00.000Z' }),
        stageOf(1, { size: 3, inProgress: 2, failed: 1, startedAt: '2026-11-21T11:00:00.000Z' }),
      ],
    });
    serve(
      [running],
      [
        campaignLiftOf({ deviceNo: 'SL0001', state: 'done', runningVersion: '2.0.0' }),
        campaignLiftOf({ deviceNo: 'SL0002', stage: 1, state: 'downloading', percent: 40 }),
        campaignLiftOf({
          deviceNo: 'SL0003',
          stage: 1,
          state: 'deferred',
          reason: 'inTrip',
          retryAt: '2026-11-21T12:30:00.000Z',
        }),
        campaignLiftOf({ deviceNo: 'SL0004', stage: 1, state: 'failed', reason: 'hashMismatch' }),
      ],
    );
    renderAt(<FirmwarePage />, { path: AT_CAMPAIGNS, session: adminSession() });
    const { user, drawer } = await openCampaign(running);
    expect(within(drawer).getByTestId('campaign-stage-0')).toHaveTextContent('Canary');
    expect(within(drawer).getByTestId('campaign-stage-1')).toHaveTextContent('Wave 1');
    expect(within(drawer).getByTestId('campaign-stage-1')).toHaveTextContent('In progress: 2');
    expect(within(drawer).getByTestId('campaign-stage-1')).toHaveTextContent('Failed: 1');
    expect(await within(drawer).findByText('SL0003')).toBeInTheDocument();
    expect(within(drawer).getByText('Downloading')).toBeInTheDocument();
    expect(within(drawer).getByText('Deferred')).toBeInTheDocument();
    expect(within(drawer).getByText(/Next attempt 2026-11-21/)).toBeInTheDocument();
    expect(
      within(drawer).getByText(
        'Send the update again; if this repeats, check the package and any proxy on the way.',
      ),
    ).toBeInTheDocument();
    expect(
      within(drawer).getByText('The lift installs on its own when it is idle; nothing to do.'),
    ).toBeInTheDocument();

    // Running: pause and cancel, no approve or resume.
    expect(within(drawer).queryByTestId('campaign-approve')).toBeNull();
    expect(within(drawer).queryByTestId('campaign-resume')).toBeNull();
    await user.click(within(drawer).getByTestId('campaign-cancel'));
    const question = await screen.findByText(
      /Lifts not yet offered the package will not be offered it/,
    );
    expect(http.post).not.toHaveBeenCalled();
    vi.mocked(http.post).mockResolvedValue({ ...running, state: 'cancelled' });
    const popup = question.closest<HTMLElement>('.ant-popover')!;
    await user.click(within(popup).getByRole('button', { name: 'Cancel campaign' }));
    await waitFor(() =>
      expect(vi.mocked(http.post).mock.calls[0]!.slice(0, 2)).toEqual([
        `${BASE}/cancel`,
        { id: running.id },
      ]),
    );
  });

  it('new campaign: a translated error for an empty name, then preview, then create', async () => {
    serve([]);
    const created = campaignOf({ state: 'awaitingApproval', name: 'Spring update' });
    vi.mocked(http.post).mockImplementation(async (path: string) => {
      if (path === `${BASE}/preview`)
        return { liftCount: 120, stageSizes: [1, 50, 50, 19], sample: ['SL0001', 'SL0002'] };
      if (path === `${BASE}/create`) return created;
      throw new Error(`unexpected POST ${path}`);
    });
    renderAt(<FirmwarePage />, { path: AT_CAMPAIGNS, session: adminSession() });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /New campaign/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('campaign-create')).toBeDisabled();

    await user.click(within(dialog).getByTestId('campaign-preview-button'));
    expect(await within(dialog).findAllByText('Input cannot be empty')).not.toHaveLength(0);
    expect(
      within(dialog).getByRole('textbox', { name: 'Name' }).closest('.ant-form-item'),
    ).toHaveTextContent('Input cannot be empty');
    expect(http.post).not.toHaveBeenCalled();

    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Spring update');
    await user.click(within(dialog).getByRole('combobox', { name: 'Package' }));
    await user.click(await screen.findByTitle('2.0.0 · Maker'));
    // The kinds offered are the package's.
    await user.click(within(dialog).getByRole('combobox', { name: 'Lift kinds' }));
    expect(await screen.findByTitle('Vertical hydraulic lift')).toBeInTheDocument();
    expect(screen.queryByTitle('Inclined two-dimensional rack lift')).toBeNull();
    await user.click(screen.getByTitle('Vertical hydraulic lift'));

    await user.click(within(dialog).getByTestId('campaign-preview-button'));
    expect(await within(dialog).findByTestId('campaign-preview')).toHaveTextContent(
      '120 lifts in 4 stages: 1 canary, then waves of 50 × 2, 19',
    );
    expect(within(dialog).getByTestId('campaign-preview')).toHaveTextContent('SL0001, SL0002');
    const [path, sent] = vi.mocked(http.post).mock.calls[0]!;
    expect(path).toBe(`${BASE}/preview`);
    expect(sent).toEqual({
      name: 'Spring update',
      packageId: PACKAGE.id,
      selection: { kinds: ['verticalHydraulic'] },
      plan: DEFAULT_CAMPAIGN_PLAN,
    });
    expect(firmwareCampaignCreateSchema.safeParse(sent).success).toBe(true);

    await user.click(within(dialog).getByTestId('campaign-create'));
    await waitFor(() => expect(http.post).toHaveBeenCalledTimes(2));
    expect(vi.mocked(http.post).mock.calls[1]!.slice(0, 2)).toEqual([`${BASE}/create`, sent]);
    expect(
      await screen.findByText('Campaign created: it starts once another person approves it'),
    ).toBeInTheDocument();
  });

  it('asks for a new preview after a change, and shows the server’s refusal translated', async () => {
    serve([]);
    vi.mocked(http.post)
      .mockResolvedValueOnce({ liftCount: 1, stageSizes: [1], sample: ['SL0001'] })
      .mockRejectedValueOnce(new ApiError(409, 'campaign.noLifts', 'no lifts'));
    renderAt(<FirmwarePage />, { path: AT_CAMPAIGNS, session: adminSession() });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /New campaign/ }));
    const dialog = await screen.findByRole('dialog');
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    await user.type(name, 'Autumn');
    await user.click(within(dialog).getByRole('combobox', { name: 'Package' }));
    await user.click(await screen.findByTitle('2.0.0 · Maker'));
    await user.click(within(dialog).getByTestId('campaign-preview-button'));
    expect(await within(dialog).findByTestId('campaign-preview')).toHaveTextContent(
      'Lifts: 1, one stage (canary)',
    );
    expect(within(dialog).getByTestId('campaign-create')).toBeEnabled();

    // The preview was for other values: create waits for a new one.
    await user.type(name, ' night');
    expect(within(dialog).getByTestId('campaign-create')).toBeDisabled();
    expect(within(dialog).queryByTestId('campaign-preview')).toBeNull();
    await user.click(within(dialog).getByTestId('campaign-preview-button'));
    expect(await screen.findByText('No lift matches the selection')).toBeInTheDocument();
    expect(within(dialog).getByTestId('campaign-create')).toBeDisabled();
  });

  it('asks an open running campaign and its lifts again every few seconds', async () => {
    const running = campaignOf();
    serve([running], [campaignLiftOf({ deviceNo: 'SL0009' })]);
    renderAt(<FirmwarePage />, { path: AT_CAMPAIGNS, session: readerSession(['query']) });
    const { drawer } = await openCampaign(running);
    expect(await within(drawer).findByText('SL0009')).toBeInTheDocument();
    const calls = (path: string) =>
      vi.mocked(http.get).mock.calls.filter(([p]) => p === `${BASE}/${path}`).length;
    expect(calls('get')).toBe(1);
    await waitFor(() => expect(calls('get')).toBe(2), { timeout: 7_000 });
    await waitFor(() => expect(calls('lifts')).toBe(2), { timeout: 2_000 });
  });
});
