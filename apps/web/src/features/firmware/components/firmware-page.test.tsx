import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  FIRMWARE_MAX_BYTES,
  firmwarePackageCreateSchema,
  type Action,
  type FirmwarePackage,
  type FirmwareSigningKey,
} from '@liftlink/protocol';
import { ApiError, http } from '../../../lib/http.ts';
import type * as HttpModule from '../../../lib/http.ts';
import { renderAt } from '../../../test/render.tsx';
import { packageOf, SHA } from '../model/firmware-fixtures.ts';
import FirmwarePage from './firmware-page.tsx';
import { adminSession, englishTexts, readerSession, resetHttp, rows } from './firmware-test-kit.ts';

vi.mock('../../../lib/http.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof HttpModule>();
  return { ...actual, http: { get: vi.fn(), post: vi.fn(), upload: vi.fn() } };
});

const LIST = '/auth/access/firmware/packages';
const KEY = '/manufacture/firmware/signing-key';
const SIGNING_KEY: FirmwareSigningKey = {
  orgId: 'org-1',
  keyId: 'k-2026-0001',
  publicKey: 'MCowBQYDK2VwAyEAq1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x1c=',
  source: 'generated',
};

function serve(list: (query: unknown) => FirmwarePackage[] | Promise<FirmwarePackage[]>) {
  vi.mocked(http.get).mockImplementation(async (path: string, query?: unknown) => {
    if (path === LIST) return { list: await list(query) };
    if (path === KEY) return SIGNING_KEY;
    throw new Error(`unexpected GET ${path}`);
  });
}

/** May see and withdraw packages, but neither create them nor see the bench's key. */
const WITHDRAW_ONLY: Action[] = ['query', 'delete'];

const listCalls = () => vi.mocked(http.get).mock.calls.filter(([path]) => path === LIST);

async function openNewDialog() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: /New package/ }));
  const dialog = await screen.findByRole('dialog');
  return { user, dialog };
}

async function fillMetadata(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement) {
  await user.click(within(dialog).getByRole('combobox', { name: 'Lift kinds' }));
  await user.click(await screen.findByTitle('Vertical hydraulic lift'));
  await user.type(within(dialog).getByRole('textbox', { name: 'Version' }), '2.0.0');
  await user.type(within(dialog).getByRole('textbox', { name: 'Minimum version' }), '1.5.0');
  await user.type(
    within(dialog).getByRole('textbox', { name: 'Release notes (English)' }),
    'Smoother start',
  );
}

const fileInput = (dialog: HTMLElement) =>
  dialog.querySelector<HTMLInputElement>('input[type="file"]')!;

describe('firmware page', () => {
  beforeAll(englishTexts);
  beforeEach(resetHttp);

  it('lists the packages with kinds, size, hash and state, the notes and the signing key; filters by state', async () => {
    const ready = packageOf({});
    const withdrawn = packageOf({
      version: '1.1.0',
      state: 'withdrawn',
      withdrawnByName: 'boris',
      withdrawnAt: '2026-11-21T09:30:00.000Z',
    });
    const uploading = packageOf({ version: '1.3.0', state: 'uploading', size: null, sha256: null });
    serve((query) =>
      (query as { state?: string }).state === 'withdrawn'
        ? [withdrawn]
        : [uploading, ready, withdrawn],
    );
    renderAt(<FirmwarePage />, { session: adminSession() });

    await waitFor(() => expect(rows()).toHaveLength(3));
    const [first, second, third] = rows();
    expect(within(first!).getByText('Awaiting image')).toBeInTheDocument();
    expect(within(second!).getByText('Ready')).toBeInTheDocument();
    expect(within(second!).getByText('Inclined straight rack lift')).toBeInTheDocument();
    expect(within(second!).getByText('Vertical hydraulic lift')).toBeInTheDocument();
    expect(within(second!).getByText(/1\.5 MB/)).toBeInTheDocument();
    expect(within(second!).getByText('01234567…89abcdef')).toBeInTheDocument();
    expect(within(second!).getByText(/anna · 2026-11-20/)).toBeInTheDocument();
    expect(within(third!).getByText('Withdrawn')).toBeInTheDocument();
    expect(within(third!).getByText(/boris · 2026-11-21/)).toBeInTheDocument();
    // Only a package not yet withdrawn can be withdrawn; only one awaiting its image takes one.
    expect(within(first!).getByLabelText('Upload image 1.3.0')).toBeInTheDocument();
    expect(within(second!).queryByLabelText(/Upload image/)).toBeNull();
    expect(within(third!).queryByLabelText(/Withdraw/)).toBeNull();

    // The release notes in the user's language.
    const user = userEvent.setup();
    await user.click(second!.querySelector<HTMLElement>('.ant-table-row-expand-icon')!);
    expect(await screen.findByTestId(`firmware-notes-${ready.id}`)).toHaveTextContent(
      'Fixes the door sensor',
    );

    // The bench's key, with its id and public key.
    expect(await screen.findByTestId('firmware-key-id')).toHaveTextContent('k-2026-0001');
    expect(screen.getByTestId('firmware-public-key')).toHaveTextContent(SIGNING_KEY.publicKey);

    await user.click(within(screen.getByTestId('firmware-filter')).getByRole('combobox'));
    await user.click(await screen.findByTitle('Withdrawn'));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(listCalls().at(-1)![1]).toEqual({ state: 'withdrawn' });
  });

  it('creates the package, uploads its image and lists it', async () => {
    let stored: FirmwarePackage[] = [];
    serve(() => stored);
    const created = packageOf({
      version: '2.0.0',
      minVersion: '1.5.0',
      kinds: ['verticalHydraulic'],
      state: 'uploading',
      size: null,
      sha256: null,
    });
    vi.mocked(http.post).mockResolvedValue(created);
    vi.mocked(http.upload).mockImplementation(async () => {
      stored = [{ ...created, state: 'ready', size: 7, sha256: SHA }];
      return stored[0];
    });
    renderAt(<FirmwarePage />, { session: adminSession() });
    expect(await screen.findByText('No firmware packages yet')).toBeInTheDocument();

    const { user, dialog } = await openNewDialog();
    await fillMetadata(user, dialog);
    const image = new File(['\x7fELF...'], 'lift-2.0.0.bin', { type: 'application/octet-stream' });
    await user.upload(fileInput(dialog), image);
    await user.click(within(dialog).getByRole('button', { name: 'Create and upload' }));

    await waitFor(() => expect(http.upload).toHaveBeenCalledTimes(1));
    expect(vi.mocked(http.post).mock.calls[0]!.slice(0, 2)).toEqual([
      '/auth/access/firmware/packages/create',
      {
        kinds: ['verticalHydraulic'],
        version: '2.0.0',
        minVersion: '1.5.0',
        releaseNotes: { 'en-US': 'Smoother start' },
      },
    ]);
    // What is sent is what the server accepts.
    expect(
      firmwarePackageCreateSchema.safeParse(vi.mocked(http.post).mock.calls[0]![1]).success,
    ).toBe(true);
    const [path, sent, query] = vi.mocked(http.upload).mock.calls[0]!;
    expect(path).toBe('/auth/access/firmware/packages/upload');
    expect((sent as File).name).toBe('lift-2.0.0.bin');
    expect(query).toEqual({ id: created.id });
    expect(await screen.findByText('The package is ready')).toBeInTheDocument();
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(within(rows()[0]!).getByText('Ready')).toBeInTheDocument();
  });

  it('after a failed upload says why, and the next attempt uploads only', async () => {
    serve(() => []);
    const created = packageOf({ version: '2.0.0', state: 'uploading', size: null, sha256: null });
    vi.mocked(http.post).mockResolvedValue(created);
    vi.mocked(http.upload)
      .mockRejectedValueOnce(new ApiError(413, 'firmware.tooLarge', 'too large'))
      .mockResolvedValue({ ...created, state: 'ready' });
    renderAt(<FirmwarePage />, { session: adminSession() });
    const { user, dialog } = await openNewDialog();
    await fillMetadata(user, dialog);
    await user.upload(fileInput(dialog), new File(['image'], 'a.bin'));
    await user.click(within(dialog).getByRole('button', { name: 'Create and upload' }));
    expect(await screen.findByText('The firmware image is too large')).toBeInTheDocument();
    expect(within(dialog).getByTestId('firmware-retry-upload')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Create and upload' }));
    await waitFor(() => expect(http.upload).toHaveBeenCalledTimes(2));
    expect(http.post).toHaveBeenCalledTimes(1);
    expect(await screen.findByText('The package is ready')).toBeInTheDocument();
  });

  it.each([
    ['an empty file', 0, 'The file is empty'],
    ['an oversize file', FIRMWARE_MAX_BYTES + 1, 'The file is larger than the limit of 64 MB'],
  ])('refuses %s with its reason and sends nothing', async (_name, size, text) => {
    serve(() => []);
    renderAt(<FirmwarePage />, { session: adminSession() });
    const { user, dialog } = await openNewDialog();
    await fillMetadata(user, dialog);
    const file = new File(size > 0 ? ['x'] : [], 'image.bin');
    Object.defineProperty(file, 'size', { value: size });
    await user.upload(fileInput(dialog), file);
    expect(await within(dialog).findByText(text)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Create and upload' }));
    expect(await within(dialog).findByText(text)).toBeInTheDocument();
    expect(http.post).not.toHaveBeenCalled();
    expect(http.upload).not.toHaveBeenCalled();
  });

  it('withdraws a package after confirmation', async () => {
    const ready = packageOf({ version: '1.4.0' });
    let stored = [ready];
    serve(() => stored);
    vi.mocked(http.post).mockImplementation(async () => {
      stored = [
        { ...ready, state: 'withdrawn', withdrawnByName: 'me', withdrawnAt: ready.createdAt },
      ];
      return stored[0];
    });
    renderAt(<FirmwarePage />, { session: readerSession(WITHDRAW_ONLY) });
    await waitFor(() => expect(rows()).toHaveLength(1));
    const user = userEvent.setup();
    await user.click(within(rows()[0]!).getByLabelText('Withdraw 1.4.0'));
    const question = await screen.findByText(/Withdraw version 1\.4\.0\?/);
    expect(http.post).not.toHaveBeenCalled();
    const popup = question.closest<HTMLElement>('.ant-popover')!;
    await user.click(within(popup).getByRole('button', { name: 'Withdraw' }));

    await waitFor(() => expect(http.post).toHaveBeenCalledTimes(1));
    expect(vi.mocked(http.post).mock.calls[0]!.slice(0, 2)).toEqual([
      '/auth/access/firmware/packages/withdraw',
      { id: ready.id },
    ]);
    expect(await screen.findByText('Package withdrawn')).toBeInTheDocument();
    await waitFor(() => expect(within(rows()[0]!).getByText('Withdrawn')).toBeInTheDocument());
  });

  it('shows no New button and no signing key to a user who may not create or provision', async () => {
    serve(() => [packageOf({})]);
    renderAt(<FirmwarePage />, { session: readerSession(WITHDRAW_ONLY) });
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(screen.queryByRole('button', { name: /New package/ })).toBeNull();
    expect(screen.queryByTestId('firmware-signing-key')).toBeNull();
    expect(vi.mocked(http.get).mock.calls.some(([path]) => path === KEY)).toBe(false);
  });

  it('shows a failed load with its reason and loads again on retry', async () => {
    let fail = true;
    serve(() => {
      if (fail) throw new ApiError(409, 'firmware.notManufacturer', 'not a manufacturer');
      return [packageOf({})];
    });
    renderAt(<FirmwarePage />, { session: readerSession(WITHDRAW_ONLY) });
    expect(await screen.findByTestId('panel-error')).toHaveTextContent(
      'Firmware packages and signing keys belong to a manufacturer organization',
    );
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
  });
});
