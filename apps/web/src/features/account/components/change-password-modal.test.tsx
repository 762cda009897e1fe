import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderAt, useEnglish } from '../../../test/render.tsx';
import { ChangePasswordModal } from './change-password-modal.tsx';

const fetchMock = vi.fn<typeof fetch>();

beforeAll(useEnglish);
beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  document.cookie = 'XSRF-TOKEN=t; path=/';
});
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

const errors = () =>
  Array.from(document.querySelectorAll('.ant-form-item-explain-error')).map((e) => e.textContent);

describe('change password dialog (spec section 5)', () => {
  it('shows the three messages and closes on success', async () => {
    fetchMock.mockImplementation(() =>
      Promise.resolve(
        new Response(
          JSON.stringify({
            success: true,
            code: 'ok',
            msg: 'modification successful',
            result: null,
          }),
        ),
      ),
    );
    const onClose = vi.fn();
    renderAt(<ChangePasswordModal open onClose={onClose} />);
    const save = await screen.findByRole('button', { name: 'Save' });
    await userEvent.click(save);
    await waitFor(() =>
      expect(errors()).toEqual([
        'Input cannot be empty',
        'Input cannot be empty',
        'Input cannot be empty',
      ]),
    );

    await userEvent.type(screen.getByTestId('old-password'), 'old-password');
    await userEvent.type(screen.getByTestId('new-password'), 'short');
    await userEvent.type(screen.getByTestId('confirm-password'), 'other');
    await userEvent.click(save);
    await waitFor(() =>
      expect(errors()).toEqual([
        'Password is shorter than 8, please re-enter',
        'Passwords entered twice do not match',
      ]),
    );
    expect(fetchMock).not.toHaveBeenCalled();

    await userEvent.clear(screen.getByTestId('new-password'));
    await userEvent.type(screen.getByTestId('new-password'), 'long-enough-1');
    await userEvent.clear(screen.getByTestId('confirm-password'));
    await userEvent.type(screen.getByTestId('confirm-password'), 'long-enough-1');
    await userEvent.click(save);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(JSON.parse(fetchMock.mock.calls[0]?.[1]?.body as string)).toEqual({
      oldPassword: 'old-password',
      password: 'long-enough-1',
    });
  });

  it('shows the server message and stays open when the old password is wrong', async () => {
    fetchMock.mockImplementation(() =>
      Promise.resolve(
        new Response(
          JSON.stringify({
            success: false,
            code: 'auth.oldPasswordWrong',
            msg: 'The old password is wrong',
            result: null,
          }),
          { status: 400 },
        ),
      ),
    );
    const onClose = vi.fn();
    renderAt(<ChangePasswordModal open onClose={onClose} />);
    await userEvent.type(await screen.findByTestId('old-password'), 'wrong-one');
    await userEvent.type(screen.getByTestId('new-password'), 'long-enough-1');
    await userEvent.type(screen.getByTestId('confirm-password'), 'long-enough-1');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findAllByText('The old password is wrong')).length).toBeGreaterThan(0);
    expect(onClose).not.toHaveBeenCalled();
  });
});
