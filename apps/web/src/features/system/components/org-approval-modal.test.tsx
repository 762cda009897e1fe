import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiError, http } from '../../../lib/http.ts';
import type * as HttpModule from '../../../lib/http.ts';
import { useEnglish } from '../../../test/render.tsx';
import { ORG, ORGS_URL, renderOrgsPage } from './orgs-test-kit.tsx';

vi.mock('../../../lib/http.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof HttpModule>();
  return { ...actual, http: { get: vi.fn(), post: vi.fn() } };
});

const CLASSES_URL = '/auth/access/system/orgs/approval-classes';
const UPDATE_URL = `${CLASSES_URL}/update`;

/** The server: the organization list and its stored approval classes. */
function serve(stored: string[]) {
  vi.mocked(http.get).mockImplementation(async (url: string) => {
    if (url === ORGS_URL) return { list: [ORG] };
    if (url === CLASSES_URL) return { orgId: ORG.id, approvalClasses: [...stored] };
    throw new Error(`unexpected GET ${url}`);
  });
}

const classBox = (cls: string) => screen.getByTestId(`org-approval-class-${cls}`);
const checked = () =>
  ['movement', 'deformation', 'aging', 'selfLearning', 'test'].filter(
    (cls) => (classBox(cls) as HTMLInputElement).checked,
  );

async function openApproval() {
  const user = userEvent.setup();
  await user.click(await screen.findByTestId('org-approval-open'));
  const dialog = await screen.findByRole('dialog');
  await waitFor(() => expect(classBox('aging')).toBeChecked());
  return { user, dialog };
}

describe('organization approval classes', () => {
  beforeAll(useEnglish);
  beforeEach(() => {
    vi.mocked(http.get).mockReset();
    vi.mocked(http.post).mockReset();
  });

  it('shows the stored classes and saves the chosen ones', async () => {
    serve(['aging', 'deformation', 'selfLearning']);
    renderOrgsPage(['query', 'edit']);
    const { user, dialog } = await openApproval();
    expect(within(dialog).getByText('Two-person approval: Metro Lifts')).toBeInTheDocument();
    expect(screen.getByTestId('org-approval-hint')).toHaveTextContent(
      'Commands of the checked kinds run only after a second person approves them',
    );
    expect(checked()).toEqual(['deformation', 'aging', 'selfLearning']);
    expect(within(dialog).getByText('Movement (summon, restart)')).toBeInTheDocument();

    vi.mocked(http.post).mockImplementation(async (_url: string, body?: unknown) => body);
    await user.click(classBox('movement'));
    await user.click(classBox('aging'));
    await user.click(screen.getByTestId('org-approval-save'));

    await waitFor(() => expect(http.post).toHaveBeenCalledTimes(1));
    const [url, body] = vi.mocked(http.post).mock.calls[0]!;
    expect(url).toBe(UPDATE_URL);
    const sent = body as { orgId: string; approvalClasses: string[] };
    expect(sent.orgId).toBe(ORG.id);
    expect([...sent.approvalClasses].sort()).toEqual(['deformation', 'movement', 'selfLearning']);
    expect(await screen.findByText('Saved')).toBeInTheDocument();
    // The stored choice is read again after saving.
    await waitFor(() =>
      expect(vi.mocked(http.get).mock.calls.filter(([u]) => u === CLASSES_URL)).toHaveLength(2),
    );
  });

  it('may save no class at all, and shows a refusal translated', async () => {
    serve(['aging']);
    renderOrgsPage(['query', 'edit']);
    const { user } = await openApproval();
    vi.mocked(http.post).mockRejectedValueOnce(new ApiError(404, 'org.notFound', 'not found'));
    await user.click(classBox('aging'));
    await user.click(screen.getByTestId('org-approval-save'));
    expect(await screen.findByText('Organization not found')).toBeInTheDocument();
    expect(vi.mocked(http.post).mock.calls[0]![1]).toEqual({ orgId: ORG.id, approvalClasses: [] });
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('tells why the classes could not be loaded, and offers no save', async () => {
    vi.mocked(http.get).mockImplementation(async (url: string) => {
      if (url === ORGS_URL) return { list: [ORG] };
      throw new ApiError(404, 'org.notFound', 'not found');
    });
    renderOrgsPage(['query', 'edit']);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('org-approval-open'));
    expect(await screen.findByText('Organization not found')).toBeInTheDocument();
    expect(screen.getByTestId('org-approval-save')).toBeDisabled();
  });

  it('is read-only for a user who may only look at organizations', async () => {
    serve(['aging', 'test']);
    renderOrgsPage(['query']);
    const { user, dialog } = await openApproval();
    expect(checked()).toEqual(['aging', 'test']);
    for (const cls of ['movement', 'aging']) expect(classBox(cls)).toBeDisabled();
    expect(screen.queryByTestId('org-approval-save')).not.toBeInTheDocument();
    expect(screen.getByTestId('org-approval-readonly')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(http.post).not.toHaveBeenCalled();
  });

  it('is absent without the right to look at organizations', async () => {
    serve([]);
    renderOrgsPage([]);
    expect(await screen.findByText('Metro Lifts')).toBeInTheDocument();
    expect(screen.queryByTestId('org-approval-open')).not.toBeInTheDocument();
    expect(vi.mocked(http.get).mock.calls.filter(([u]) => u === CLASSES_URL)).toHaveLength(0);
  });
});
