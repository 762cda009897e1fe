import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FORCED_LOGOUT_RELOAD_MS, REQUEST_TIMEOUT_MS } from '@liftlink/protocol';
import { ApiError, browserPage, http, resetHttpState } from './http.ts';
import { setFeedback } from './feedback.ts';
import { getToken, setToken } from './token.ts';
import { useEnglish } from '../test/render.tsx';

const notification = { error: vi.fn() };
const fetchMock = vi.fn<typeof fetch>();

function answer(status: number, body: unknown) {
  return Promise.resolve(
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );
}

beforeAll(useEnglish);
beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  setFeedback({ notification, message: { error: vi.fn() } } as never);
  document.cookie = 'XSRF-TOKEN=csrf-123; path=/';
  resetHttpState();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  fetchMock.mockReset();
  notification.error.mockReset();
});

describe('HTTP client (spec section 7)', () => {
  it('sends JSON with the CSRF header and the held token, and unwraps the envelope', async () => {
    setToken('tok-1', undefined, false);
    fetchMock.mockImplementation(() =>
      answer(200, { success: true, code: 'ok', msg: 'OK', result: { hello: 'world' } }),
    );
    await expect(http.post('/auth/access/thing', { a: 1 })).resolves.toEqual({ hello: 'world' });
    const [url, init] = fetchMock.mock.calls[0]!;
    const headers = init?.headers as Record<string, string>;
    expect(url).toBe('/auth/access/thing');
    expect(headers['x-xsrf-token']).toBe('csrf-123');
    expect(headers['access-token']).toBe('tok-1');
    expect(headers['Content-Type']).toBe('application/json');
    expect(init?.body).toBe('{"a":1}');
  });

  it('sends no Access-Token without a token, and drops empty query values', async () => {
    fetchMock.mockImplementation(() =>
      answer(200, { success: true, code: 'ok', msg: 'OK', result: [] }),
    );
    await http.get('/auth/access/system/users', { page: 2, keyword: '', orgId: undefined });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/auth/access/system/users?page=2');
    expect((init?.headers as Record<string, string>)['access-token']).toBeUndefined();
  });

  it('turns an error envelope into an ApiError with status, code and issues', async () => {
    fetchMock.mockImplementation(() =>
      answer(400, {
        success: false,
        code: 'validation.failed',
        msg: 'bad',
        result: { issues: [{ path: 'email', message: 'validation.email' }] },
      }),
    );
    const error = await http.post('/auth/register', {}, { quiet: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).code).toBe('validation.failed');
    expect((error as ApiError).issues).toEqual([{ path: 'email', message: 'validation.email' }]);
  });

  /** A signed-in page whose next call meets a 401; the page's reload is watched. */
  async function meetUnauthorized() {
    vi.useFakeTimers();
    const reload = vi.spyOn(browserPage, 'reload').mockImplementation(() => undefined);
    setToken('tok-2', undefined, true);
    fetchMock.mockImplementation(() =>
      answer(401, {
        success: false,
        code: 'auth.unauthorized',
        msg: 'Authorization verification failed',
        result: null,
      }),
    );
    await expect(http.get('/auth/access/info')).rejects.toBeInstanceOf(ApiError);
    return reload;
  }

  function expectReloadAfter(reload: ReturnType<typeof vi.fn>, ms: number): void {
    vi.advanceTimersByTime(ms - 1);
    expect(reload).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(reload).toHaveBeenCalledTimes(1);
  }

  it('on 401 with a token: notice "Unauthorized", token gone, page reloads after 1.5 s', async () => {
    const reload = await meetUnauthorized();
    expect(notification.error).toHaveBeenCalledWith(
      expect.objectContaining({
        title: 'Unauthorized',
        description: 'Authorization verification failed',
      }),
    );
    expect(getToken()).toBeNull();
    expectReloadAfter(reload, FORCED_LOGOUT_RELOAD_MS);
  });

  it('on 401 while the notice is still loading: the 1.5 s start when it can be seen', async () => {
    setFeedback(null);
    const reload = await meetUnauthorized();
    vi.advanceTimersByTime(FORCED_LOGOUT_RELOAD_MS * 2);
    expect(reload).not.toHaveBeenCalled();
    setFeedback({ notification, message: { error: vi.fn() } } as never);
    expect(notification.error).toHaveBeenCalledWith(
      expect.objectContaining({ title: 'Unauthorized' }),
    );
    expectReloadAfter(reload, FORCED_LOGOUT_RELOAD_MS);
  });

  it('on 401 when the notice never loads: the page still reloads, 10 s later', async () => {
    setFeedback(null);
    const reload = await meetUnauthorized();
    expectReloadAfter(reload, 10_000 + FORCED_LOGOUT_RELOAD_MS);
  });

  it('on 403: notice "Forbidden" with the server message, translated by code', async () => {
    fetchMock.mockImplementation(() =>
      answer(403, {
        success: false,
        code: 'forbidden',
        msg: 'You do not have permission to do this',
        result: null,
      }),
    );
    const error = (await http
      .post('/auth/access/system/users/create', {})
      .catch((e: unknown) => e)) as ApiError;
    expect(error.handled).toBe(true);
    expect(notification.error).toHaveBeenCalledWith(
      expect.objectContaining({
        title: 'Forbidden',
        description: 'You do not have permission to do this',
      }),
    );
  });

  it('a quiet call (sign-in) shows no global notice', async () => {
    fetchMock.mockImplementation(() =>
      answer(401, {
        success: false,
        code: 'auth.badCredentials',
        msg: 'Invalid username or password',
        result: null,
      }),
    );
    await expect(http.post('/auth/access/login', {}, { quiet: true })).rejects.toMatchObject({
      code: 'auth.badCredentials',
    });
    expect(notification.error).not.toHaveBeenCalled();
  });

  it('gives up after 50 s', async () => {
    vi.useFakeTimers();
    fetchMock.mockImplementation(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () =>
            reject(new DOMException('aborted', 'AbortError')),
          );
        }),
    );
    const pending = http.get('/auth/access/info').catch((e: unknown) => e);
    vi.advanceTimersByTime(REQUEST_TIMEOUT_MS);
    await expect(pending).resolves.toMatchObject({ code: 'request.timeout' });
  });
});

describe('HTTP client: files', () => {
  function file(status: number, body: string, headers: Record<string, string> = {}) {
    return Promise.resolve(new Response(body, { status, headers }));
  }

  it("downloads a file as a blob with the CSRF header, the token and the server's file name", async () => {
    setToken('tok-3', undefined, false);
    fetchMock.mockImplementation(() =>
      file(200, 'time,user\n', {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="log.csv"; filename*=UTF-8''${encodeURIComponent('журнал 1.csv')}`,
      }),
    );
    const result = await http.download('/auth/access/log/export', { lang: 'ru-RU', keyword: '' });
    expect(result.fileName).toBe('журнал 1.csv');
    expect(await result.blob.text()).toBe('time,user\n');
    const [url, init] = fetchMock.mock.calls[0]!;
    const headers = init?.headers as Record<string, string>;
    expect(url).toBe('/auth/access/log/export?lang=ru-RU');
    expect(init?.method).toBe('GET');
    expect(headers['x-xsrf-token']).toBe('csrf-123');
    expect(headers['access-token']).toBe('tok-3');
  });

  it('POSTs the JSON request of an export that takes a body (the lift logbook)', async () => {
    fetchMock.mockImplementation(() =>
      file(200, 'seq\n', { 'content-disposition': 'attachment; filename="logbook-L1.csv"' }),
    );
    const body = { liftId: 'l1', kinds: ['command'] };
    const result = await http.download('/auth/access/lift/logbook/export', undefined, { body });
    expect(result.fileName).toBe('logbook-L1.csv');
    const [url, init] = fetchMock.mock.calls[0]!;
    const headers = init?.headers as Record<string, string>;
    expect(url).toBe('/auth/access/lift/logbook/export');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(init?.body as string)).toEqual(body);
    expect(headers['Content-Type']).toBe('application/json');
    expect(headers['x-xsrf-token']).toBe('csrf-123');
  });

  it('takes the plain file name, and none when the server sends no Content-Disposition', async () => {
    fetchMock.mockImplementationOnce(() =>
      file(200, 'x', { 'content-disposition': 'attachment; filename="liftlink.llbackup"' }),
    );
    fetchMock.mockImplementationOnce(() => file(200, 'y'));
    await expect(http.download('/a')).resolves.toMatchObject({ fileName: 'liftlink.llbackup' });
    await expect(http.download('/b')).resolves.toMatchObject({ fileName: null });
  });

  it("turns a failed download's envelope into an ApiError, with the 403 notice", async () => {
    fetchMock.mockImplementation(() =>
      answer(403, { success: false, code: 'auth.forbidden', msg: 'no export', result: null }),
    );
    const error = await http.download('/auth/access/log/export').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 403, code: 'auth.forbidden', handled: true });
    expect(notification.error).toHaveBeenCalledOnce();
  });

  it('a failed download without an envelope keeps the HTTP status', async () => {
    fetchMock.mockImplementation(() => file(502, '<html>bad gateway</html>'));
    await expect(http.download('/x')).rejects.toMatchObject({ status: 502, code: 'internal' });
    fetchMock.mockImplementation(() => Promise.reject(new TypeError('offline')));
    await expect(http.download('/x')).rejects.toMatchObject({ status: 0, code: 'request.network' });
  });

  it('a download is not cut at 50 s (a backup may take longer)', async () => {
    vi.useFakeTimers();
    let aborted = false;
    fetchMock.mockImplementation(
      (_url, init) =>
        new Promise(() => {
          init?.signal?.addEventListener('abort', () => (aborted = true));
        }),
    );
    void http.download('/auth/access/system/backup');
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS * 2);
    expect(aborted).toBe(false);
  });

  it('uploads a file as it is and unwraps the envelope', async () => {
    setToken('tok-4', undefined, false);
    fetchMock.mockImplementation(() =>
      answer(200, { success: true, code: 'ok', msg: 'OK', result: { id: 'd1' } }),
    );
    const upload = new File(['%PDF'], 'manual.pdf', { type: 'application/pdf' });
    await expect(
      http.upload('/api/document/upload', upload, { name: upload.name, kind: 'other' }),
    ).resolves.toEqual({ id: 'd1' });
    const [url, init] = fetchMock.mock.calls[0]!;
    const headers = init?.headers as Record<string, string>;
    expect(url).toBe('/api/document/upload?name=manual.pdf&kind=other');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe(upload);
    expect(headers['Content-Type']).toBe('application/octet-stream');
    expect(headers['x-xsrf-token']).toBe('csrf-123');
    expect(headers['access-token']).toBe('tok-4');
  });

  it('a refused upload is an ApiError with its issues', async () => {
    fetchMock.mockImplementation(() =>
      answer(400, {
        success: false,
        code: 'validation.failed',
        msg: 'bad',
        result: { issues: [{ path: 'name', message: 'validation.required' }] },
      }),
    );
    const error = await http
      .upload('/api/document/upload', new Blob(['x']), { name: '' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, code: 'validation.failed' });
    expect((error as ApiError).issues).toEqual([{ path: 'name', message: 'validation.required' }]);
  });
});
