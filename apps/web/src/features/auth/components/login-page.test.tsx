import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { getToken } from '../../../lib/token.ts';
import { renderAt, useEnglish } from '../../../test/render.tsx';
import LoginPage from './login-page.tsx';

const fetchMock = vi.fn<typeof fetch>();
const envelope = (status: number, body: object) =>
  Promise.resolve(new Response(JSON.stringify(body), { status }));

beforeAll(useEnglish);
beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  document.cookie = 'XSRF-TOKEN=t; path=/';
});
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

function serverSays(login: () => Promise<Response>) {
  fetchMock.mockImplementation((url) => {
    const path = url as string;
    if (path === '/auth/access/login') return login();
    if (path.startsWith('/auth/2step-code'))
      return envelope(200, { success: true, code: 'ok', msg: 'OK', result: { stepCode: false } });
    return envelope(200, {
      success: true,
      code: 'ok',
      msg: 'OK',
      result: { productName: 'LiftLink', providers: [] },
    });
  });
}

describe('login page', () => {
  it('asks for both fields before calling the server', async () => {
    serverSays(() => envelope(500, {}));
    renderAt(<LoginPage />, { path: '/user/login' });
    await userEvent.click(await screen.findByTestId('login-submit'));
    expect(await screen.findAllByText('Input cannot be empty')).toHaveLength(2);
    expect(fetchMock.mock.calls.some(([url]) => url === '/auth/access/login')).toBe(false);
  });

  it('shows "Wrong account or password" for bad credentials', async () => {
    serverSays(() =>
      envelope(401, {
        success: false,
        code: 'auth.badCredentials',
        msg: 'Invalid username or password',
        result: null,
      }),
    );
    renderAt(<LoginPage />, { path: '/user/login' });
    await userEvent.type(await screen.findByPlaceholderText('Account name or email'), 'someone');
    await userEvent.type(screen.getByPlaceholderText('Password'), 'nope');
    await userEvent.click(screen.getByTestId('login-submit'));
    expect(await screen.findByTestId('login-error')).toHaveTextContent('Wrong account or password');
    expect(getToken()).toBeNull();
  });

  it('keeps the token and goes to the redirect target', async () => {
    serverSays(() =>
      envelope(200, {
        success: true,
        code: 'ok',
        msg: 'OK',
        result: { token: 'tok', expiresAt: new Date(Date.now() + 60_000).toISOString() },
      }),
    );
    renderAt(<LoginPage />, { path: '/user/login?redirect=%2Fdashboard%2Fworkplace' });
    await userEvent.type(await screen.findByPlaceholderText('Account name or email'), 'admin');
    await userEvent.type(screen.getByPlaceholderText('Password'), 'secret-password');
    await userEvent.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText('workplace page')).toBeInTheDocument();
    expect(getToken()).toBe('tok');
    // "Remember me" is ticked by default: the token outlives the browser tab.
    expect(localStorage.getItem('liftlink.token')).toContain('tok');
    const body = JSON.parse(
      fetchMock.mock.calls.find(([url]) => url === '/auth/access/login')?.[1]?.body as string,
    ) as object;
    expect(body).toEqual({
      type: 'account',
      username: 'admin',
      password: 'secret-password',
      remember: true,
    });
  });

  it('without "remember me" the token lives in this tab only', async () => {
    serverSays(() =>
      envelope(200, {
        success: true,
        code: 'ok',
        msg: 'OK',
        result: { token: 'tab-only', expiresAt: new Date(Date.now() + 60_000).toISOString() },
      }),
    );
    renderAt(<LoginPage />, { path: '/user/login' });
    await userEvent.type(await screen.findByPlaceholderText('Account name or email'), 'admin');
    await userEvent.type(screen.getByPlaceholderText('Password'), 'secret-password');
    await userEvent.click(screen.getByRole('checkbox'));
    await userEvent.click(screen.getByTestId('login-submit'));
    await waitFor(() => expect(sessionStorage.getItem('liftlink.token')).toContain('tab-only'));
    expect(localStorage.getItem('liftlink.token')).toBeNull();
  });

  it('checks the mobile number before texting a code, then counts down', async () => {
    serverSays(() => envelope(500, {}));
    fetchMock.mockImplementation((url) =>
      (url as string) === '/account/sms'
        ? envelope(200, { success: true, code: 'ok', msg: 'OK', result: null })
        : envelope(200, { success: true, code: 'ok', msg: 'OK', result: { providers: [] } }),
    );
    renderAt(<LoginPage />, { path: '/user/login' });
    await userEvent.click(await screen.findByRole('tab', { name: 'Mobile number' }));
    expect(screen.getByRole('tab', { name: 'Mobile number' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    const mobile = screen.getByRole('textbox', { name: 'Mobile number' });
    await userEvent.click(screen.getByTestId('get-captcha'));
    expect(mobile).toHaveAccessibleDescription('Input cannot be empty');
    await userEvent.type(mobile, '12ab');
    expect(mobile).toHaveAccessibleDescription('Enter a valid mobile number');
    expect(fetchMock.mock.calls.some(([url]) => url === '/account/sms')).toBe(false);
    await userEvent.clear(mobile);
    await userEvent.type(mobile, '13912345678');
    await userEvent.click(screen.getByTestId('get-captcha'));
    await waitFor(() => expect(screen.getByTestId('get-captcha')).toBeDisabled());
    expect(screen.getByTestId('get-captcha')).toHaveTextContent(/^\d+ s$/);
    const sms = fetchMock.mock.calls.find(([url]) => url === '/account/sms');
    expect(JSON.parse(sms?.[1]?.body as string)).toEqual({ mobile: '13912345678' });
  });

  it('shows and hides the password', async () => {
    serverSays(() => envelope(500, {}));
    renderAt(<LoginPage />, { path: '/user/login' });
    const password = await screen.findByPlaceholderText('Password');
    expect(password).toHaveAttribute('type', 'password');
    await userEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    await userEvent.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password).toHaveAttribute('type', 'password');
  });

  describe('sign-in with another provider', () => {
    const ok = (result: object) => envelope(200, { success: true, code: 'ok', msg: 'OK', result });
    const site = (providers: object[]) => (url: string) =>
      url.startsWith('/auth/public/site') ? ok({ productName: 'LiftLink', providers }) : null;

    it('offers one button per configured provider, which carries the destination and "remember me"', async () => {
      fetchMock.mockImplementation(
        (url) =>
          site([
            { id: 'corp', label: 'Corp SSO' },
            { id: 'partner', label: 'Partner ID' },
          ])(url as string) ?? envelope(500, {}),
      );
      renderAt(<LoginPage />, { path: '/user/login?redirect=%2Flifts' });
      const corp = await screen.findByRole('link', { name: 'Sign in with Corp SSO' });
      expect(corp).toHaveAttribute('href', '/auth/oidc/corp/start?redirect=%2Flifts&remember=1');
      expect(screen.getByRole('link', { name: 'Sign in with Partner ID' })).toBeInTheDocument();
      await userEvent.click(screen.getByRole('checkbox'));
      expect(corp).toHaveAttribute('href', '/auth/oidc/corp/start?redirect=%2Flifts&remember=0');
    });

    it('shows no provider button when none is configured', async () => {
      fetchMock.mockImplementation((url) => site([])(url as string) ?? envelope(500, {}));
      renderAt(<LoginPage />, { path: '/user/login' });
      await screen.findByTestId('login-submit');
      await waitFor(() => expect(fetchMock).toHaveBeenCalled());
      expect(screen.queryByTestId('login-providers')).toBeNull();
      expect(screen.queryByRole('link', { name: /^Sign in with / })).toBeNull();
    });

    it('says why the provider sign-in was refused', async () => {
      fetchMock.mockImplementation((url) => site([])(url as string) ?? envelope(500, {}));
      renderAt(<LoginPage />, { path: '/user/login?ssoError=domainNotMapped' });
      expect(await screen.findByTestId('login-error')).toHaveTextContent(
        'Your e-mail domain is not admitted to this system, please ask an administrator',
      );
    });

    it('takes over the session the provider sign-in opened and goes on', async () => {
      fetchMock.mockImplementation((url) =>
        url === '/auth/oidc/session'
          ? ok({
              token: 'sso-tok',
              expiresAt: new Date(Date.now() + 60_000).toISOString(),
              remember: true,
            })
          : (site([])(url as string) ?? envelope(500, {})),
      );
      renderAt(<LoginPage />, {
        path: '/user/login?sso=one-time&redirect=%2Fdashboard%2Fworkplace',
      });
      expect(await screen.findByText('workplace page')).toBeInTheDocument();
      expect(getToken()).toBe('sso-tok');
      const call = fetchMock.mock.calls.find(([url]) => url === '/auth/oidc/session');
      expect(JSON.parse(call?.[1]?.body as string)).toEqual({ code: 'one-time' });
    });
  });
});
