import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiError, http } from '../../../lib/http.ts';
import type * as HttpModule from '../../../lib/http.ts';
import { useEnglish, InApp } from '../../../test/render.tsx';
import { liftListItem } from '../../../test/lift-fixtures.ts';
import { LocationModal } from './location-modal.tsx';

vi.mock('../../../lib/http.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof HttpModule>();
  return { ...actual, http: { get: vi.fn(), post: vi.fn() } };
});

const post = vi.mocked(http.post);
const LIFT = liftListItem({
  id: '6f1c2a3b-0000-4000-8000-000000000002',
  alias: 'Library',
  location: { address: '1 Harbour Road', site: 'Block B' },
});

const dialog = () => screen.getByTestId('location-modal');
const address = () => screen.getByTestId('location-address');
const save = () => userEvent.click(within(dialog()).getByRole('button', { name: 'Save' }));

describe('location editor', () => {
  beforeAll(useEnglish);
  beforeEach(() => post.mockReset());

  it('opens with the lift’s location and saves what was changed, trimmed', async () => {
    post.mockResolvedValue(null);
    const onClose = vi.fn();
    render(<LocationModal lift={LIFT} onClose={onClose} />, { wrapper: InApp });
    expect(await screen.findByText('Location: Library')).toBeInTheDocument();
    expect(address()).toHaveValue('1 Harbour Road');
    await userEvent.clear(address());
    await userEvent.type(address(), '  7 Quay Street ');
    await save();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(post).toHaveBeenCalledWith('/auth/access/lift/setting/update', {
      liftId: LIFT.id,
      location: { address: '7 Quay Street', site: 'Block B' },
    });
    expect(await screen.findByText('Device information updated successfully')).toBeInTheDocument();
  });

  it('asks for the address and sends nothing without it', async () => {
    render(<LocationModal lift={LIFT} onClose={vi.fn()} />, { wrapper: InApp });
    await userEvent.clear(await screen.findByTestId('location-address'));
    await save();
    expect(await screen.findByText('Location information missing')).toBeInTheDocument();
    expect(post).not.toHaveBeenCalled();
  });

  it('shows the server’s refusal of a field on that field and stays open', async () => {
    post.mockRejectedValueOnce(
      new ApiError(400, 'validation.failed', 'validation failed', {
        issues: [{ path: 'location.contact', message: 'validation.tooLong' }],
      }),
    );
    const onClose = vi.fn();
    render(<LocationModal lift={LIFT} onClose={onClose} />, { wrapper: InApp });
    await screen.findByText('Location: Library');
    await save();
    expect(await screen.findByText('The input is too long')).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });
});
