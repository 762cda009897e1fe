import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { downloadFile } from './download.ts';

const fetchMock = vi.fn<typeof fetch>();
let saved: { name: string; blob: Blob }[] = [];

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  saved = [];
  const blobs = new Map<string, Blob>();
  vi.stubGlobal(
    'URL',
    class extends URL {
      static override createObjectURL(blob: Blob): string {
        const url = `blob:${blobs.size}`;
        blobs.set(url, blob);
        return url;
      }
      static override revokeObjectURL(): void {}
    },
  );
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    saved.push({ name: this.download, blob: blobs.get(this.getAttribute('href') ?? '')! });
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  fetchMock.mockReset();
});

describe('downloading a file the server builds', () => {
  it('saves it under the name the server gives', async () => {
    fetchMock.mockResolvedValue(
      new Response('a,b\n', {
        headers: { 'content-disposition': 'attachment; filename="operation-log-ru.csv"' },
      }),
    );
    await downloadFile('/auth/access/log/export', { lang: 'ru-RU' }, 'fallback.csv');
    expect(saved.map((s) => s.name)).toEqual(['operation-log-ru.csv']);
    expect(await saved[0]!.blob.text()).toBe('a,b\n');
  });

  it("saves it under the caller's name when the server gives none", async () => {
    fetchMock.mockResolvedValue(new Response('x'));
    await downloadFile('/auth/access/log/export', {}, 'operation-log-2026-11-24.csv');
    expect(saved.map((s) => s.name)).toEqual(['operation-log-2026-11-24.csv']);
  });

  it('saves nothing when the export fails', async () => {
    fetchMock.mockResolvedValue(
      new Response(JSON.stringify({ success: false, code: 'internal', msg: 'x', result: null }), {
        status: 500,
      }),
    );
    await expect(downloadFile('/x', {}, 'f.csv')).rejects.toMatchObject({ code: 'internal' });
    expect(saved).toEqual([]);
  });
});
