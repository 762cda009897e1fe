import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MAX_INCIDENT_PHOTO_BYTES, type IncidentPhoto } from '@liftlink/protocol';
import { ApiError, http } from '../../../lib/http.ts';
import type * as HttpModule from '../../../lib/http.ts';
import { IncidentPhotos } from './incident-photos.tsx';
import { englishTexts, renderPage } from './incidents-test-kit.tsx';

vi.mock('../../../lib/http.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof HttpModule>();
  return { ...actual, http: { get: vi.fn(), post: vi.fn(), upload: vi.fn() } };
});

const PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82,
]);

const photoOf = (id: string, extra: Partial<IncidentPhoto> = {}): IncidentPhoto => ({
  id,
  incidentId: 7,
  contentType: 'image/png',
  size: 2048,
  sha256: 'ab'.repeat(32),
  addedById: 'u1',
  addedByName: 'Tom',
  addedAt: '2026-05-01T08:30:00.000Z',
  ...extra,
});

/** Chooses files in the hidden camera input, as the phone hands them over. */
function choose(...files: File[]) {
  fireEvent.change(screen.getByTestId('incident-photo-input'), { target: { files } });
}

describe('incident photos', () => {
  let stored: IncidentPhoto[];
  beforeAll(englishTexts);
  beforeEach(() => {
    stored = [photoOf('p1')];
    vi.mocked(http.get).mockReset();
    vi.mocked(http.upload).mockReset();
    vi.mocked(http.get).mockImplementation(async () => ({ list: stored }));
  });

  it('shows thumbnails with who and when, opening the image itself; no camera button without edit', async () => {
    renderPage(<IncidentPhotos incidentId={7} canAdd={false} />, { path: '/lift/incidents/7' });
    const photo = await screen.findByTestId('incident-photo');
    expect(photo.querySelector('img')).toHaveAttribute(
      'src',
      '/auth/access/incidents/photos/file?id=p1',
    );
    expect(photo).toHaveTextContent('Tom ·');
    expect(vi.mocked(http.get).mock.calls[0]?.slice(0, 2)).toEqual([
      '/auth/access/incidents/photos',
      { id: 7 },
    ]);
    expect(screen.queryByTestId('incident-photo-add')).not.toBeInTheDocument();
  });

  it('opens the back camera and sends the photo as it is; the list then shows it', async () => {
    vi.mocked(http.upload).mockImplementation(async () => {
      stored = [...stored, photoOf('p2')];
      return stored[1]!;
    });
    renderPage(<IncidentPhotos incidentId={7} canAdd />, { path: '/lift/incidents/7' });
    await screen.findByTestId('incident-photo');
    const input = screen.getByTestId('incident-photo-input');
    expect(input).toHaveAttribute('accept', 'image/*');
    expect(input).toHaveAttribute('capture', 'environment');
    expect(screen.getByTestId('incident-photo-add')).toHaveTextContent('Add photo');
    const file = new File([PNG], 'IMG_0001.png', { type: 'image/png' });
    choose(file);
    await waitFor(() => expect(http.upload).toHaveBeenCalledTimes(1));
    expect(vi.mocked(http.upload).mock.calls[0]).toEqual([
      '/auth/access/incidents/photos/add',
      file,
      { id: 7 },
    ]);
    await waitFor(() => expect(screen.getAllByTestId('incident-photo')).toHaveLength(2));
    expect(await screen.findByText('Photo added')).toBeInTheDocument();
  });

  it('refuses a text file named .jpg and a file over 10 MB before sending, in words', async () => {
    renderPage(<IncidentPhotos incidentId={7} canAdd />, { path: '/lift/incidents/7' });
    await screen.findByTestId('incident-photo');
    choose(new File(['just some words, not a photo'], 'photo.jpg', { type: 'image/jpeg' }));
    expect(
      await screen.findByText('Only JPEG, PNG or WebP photos can be added'),
    ).toBeInTheDocument();
    const big = new File([PNG], 'huge.png', { type: 'image/png' });
    Object.defineProperty(big, 'size', { value: MAX_INCIDENT_PHOTO_BYTES + 1 });
    choose(big);
    expect(await screen.findByText('The photo is too large (at most 10 MB)')).toBeInTheDocument();
    expect(http.upload).not.toHaveBeenCalled();
  });

  it("shows the server's refusal translated", async () => {
    vi.mocked(http.upload).mockRejectedValue(new ApiError(403, 'forbidden', 'no'));
    stored = [];
    renderPage(<IncidentPhotos incidentId={7} canAdd />, { path: '/lift/incidents/7' });
    expect(await screen.findByText('No photos yet')).toBeInTheDocument();
    choose(new File([PNG], 'a.png', { type: 'image/png' }));
    await waitFor(() => expect(http.upload).toHaveBeenCalledTimes(1));
    expect(await screen.findByText('You do not have permission to do this')).toBeInTheDocument();
  });
});
