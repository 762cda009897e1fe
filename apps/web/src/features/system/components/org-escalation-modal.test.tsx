import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { EscalationPolicy } from '@liftlink/protocol';
import { ApiError, http } from '../../../lib/http.ts';
import type * as HttpModule from '../../../lib/http.ts';
import { useEnglish } from '../../../test/render.tsx';
import { ORG, ORGS_URL, renderOrgsPage } from './orgs-test-kit.tsx';

vi.mock('../../../lib/http.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof HttpModule>();
  return { ...actual, http: { get: vi.fn(), post: vi.fn() } };
});

const ANNA = '11111111-1111-4111-8111-111111111111';
const BORIS = '22222222-2222-4222-8222-222222222222';
const CHEN = '33333333-3333-4333-8333-333333333333';
const URL = '/auth/access/system/orgs/escalation';

function policy(over: Partial<EscalationPolicy> = {}): EscalationPolicy {
  return {
    orgId: ORG.id,
    onCall: [ANNA, BORIS],
    managerId: CHEN,
    ackMinutes: 10,
    ackMinutesByPriority: { critical: 3 },
    updatedAt: null,
    updatedByName: null,
    candidates: [
      { id: ANNA, name: 'Anna', username: 'anna' },
      { id: BORIS, name: 'Boris', username: 'boris' },
      { id: CHEN, name: 'Chen Min', username: 'chen' },
    ],
    ...over,
  };
}

function serve(stored: EscalationPolicy) {
  vi.mocked(http.get).mockImplementation(async (url: string) => {
    if (url === ORGS_URL) return { list: [ORG] };
    if (url === URL) return stored;
    if (url === '/auth/access/system/orgs/approval-classes')
      return { orgId: ORG.id, approvalClasses: [] };
    throw new Error(`unexpected GET ${url}`);
  });
}

const order = () => screen.getAllByTestId('org-escalation-person').map((li) => li.textContent);

async function openEscalation() {
  const user = userEvent.setup();
  await user.click(await screen.findByTestId('org-escalation-open'));
  const dialog = await screen.findByRole('dialog');
  await waitFor(() => expect(order()).toEqual(['Anna', 'Boris']));
  // The times are set into the form after the list renders: wait for them too (a busy machine shows the gap).
  await waitFor(() =>
    expect(screen.getByTestId<HTMLInputElement>('org-escalation-minutes').value).not.toBe(''),
  );
  return { user, dialog };
}

describe('organization on-call list', () => {
  beforeAll(useEnglish);
  beforeEach(() => {
    vi.mocked(http.get).mockReset();
    vi.mocked(http.post).mockReset();
  });

  it('shows the stored list in order and saves a new order and times', async () => {
    serve(policy());
    renderOrgsPage(['query', 'edit']);
    const { user, dialog } = await openEscalation();
    expect(within(dialog).getByText('On call and escalation: Metro Lifts')).toBeInTheDocument();
    expect(screen.getByTestId('org-escalation-hint')).toHaveTextContent('after the list to the manager');
    expect(screen.getByTestId('org-escalation-minutes')).toHaveValue('10');
    expect(screen.getByTestId('org-escalation-minutes-critical')).toHaveValue('3');
    expect(
      within(screen.getByTestId('org-escalation-manager')).getByText('Chen Min (chen)'),
    ).toBeInTheDocument();

    // Boris first now, ten minutes become five, critical falls back to the general time.
    await user.click(screen.getByRole('button', { name: 'Move Boris up' }));
    expect(order()).toEqual(['Boris', 'Anna']);
    await user.clear(screen.getByTestId('org-escalation-minutes'));
    await user.type(screen.getByTestId('org-escalation-minutes'), '5');
    await user.clear(screen.getByTestId('org-escalation-minutes-critical'));
    vi.mocked(http.post).mockImplementation(async () =>
      policy({ onCall: [BORIS, ANNA], ackMinutes: 5, ackMinutesByPriority: {} }),
    );
    await user.click(screen.getByTestId('org-escalation-save'));

    await waitFor(() => expect(http.post).toHaveBeenCalledTimes(1));
    const [url, body] = vi.mocked(http.post).mock.calls[0]!;
    expect(url).toBe(`${URL}/update`);
    expect(body).toEqual({
      orgId: ORG.id,
      onCall: [BORIS, ANNA],
      managerId: CHEN,
      ackMinutes: 5,
      ackMinutesByPriority: {},
    });
    expect(await screen.findByText('Saved')).toBeInTheDocument();
  });

  it('refuses a time out of bounds before sending, and shows a refusal translated', async () => {
    serve(policy());
    renderOrgsPage(['query', 'edit']);
    const { user } = await openEscalation();
    await user.clear(screen.getByTestId('org-escalation-minutes'));
    await user.type(screen.getByTestId('org-escalation-minutes'), '2000');
    await user.click(screen.getByTestId('org-escalation-save'));
    expect(await screen.findByText('The value is too large')).toBeInTheDocument();
    expect(http.post).not.toHaveBeenCalled();

    await user.clear(screen.getByTestId('org-escalation-minutes'));
    await user.type(screen.getByTestId('org-escalation-minutes'), '15');
    vi.mocked(http.post).mockRejectedValueOnce(
      new ApiError(400, 'escalation.notCandidate', 'refused'),
    );
    await user.click(screen.getByTestId('org-escalation-save'));
    expect(
      await screen.findByText(
        'Only active members of the organization who may work on incidents can be on call or be its manager',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('is read-only for a user who may only look at organizations', async () => {
    serve(policy());
    renderOrgsPage(['query']);
    const { user, dialog } = await openEscalation();
    expect(screen.queryByTestId('org-escalation-save')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Move Boris up' })).not.toBeInTheDocument();
    expect(screen.getByTestId('org-escalation-minutes')).toBeDisabled();
    expect(screen.getByTestId('org-escalation-readonly')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(http.post).not.toHaveBeenCalled();
  });

  it('tells why the list could not be loaded, and offers no save', async () => {
    vi.mocked(http.get).mockImplementation(async (url: string) => {
      if (url === ORGS_URL) return { list: [ORG] };
      throw new ApiError(404, 'org.notFound', 'not found');
    });
    renderOrgsPage(['query', 'edit']);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('org-escalation-open'));
    expect(await screen.findByText('Organization not found')).toBeInTheDocument();
    expect(screen.getByTestId('org-escalation-save')).toBeDisabled();
  });
});
