/**
 * What the firmware page tests share: English texts with the firmware bundle, the mocked
 * `http` reset between tests, the signed-in sessions and the table rows.
 * Each test file mocks `http` itself:
 *
 *   vi.mock('../../../lib/http.ts', async (importOriginal) => ({
 *     ...(await importOriginal<typeof HttpModule>()),
 *     http: { get: vi.fn(), post: vi.fn(), upload: vi.fn() } }));
 */
import { vi } from 'vitest';
import type { Action } from '@liftlink/protocol';
import { permissionsOf } from '../../../lib/access.tsx';
import { http } from '../../../lib/http.ts';
import { changeLanguage, withTexts } from '../../../lib/i18n/language.ts';
import type { Session } from '../../../lib/session.ts';
import { userInfo } from '../../../test/render.tsx';

/** The signed-in user's id in every session here. */
export const ME = '11111111-1111-4111-8111-111111111111';

/** English texts, with the bundles the firmware page loads with them. */
export async function englishTexts(): Promise<void> {
  await changeLanguage('en-US');
  await withTexts(['lifts', 'manufacture', 'firmware'], async () => undefined)();
}

export function resetHttp(): void {
  vi.mocked(http.get).mockReset();
  vi.mocked(http.post).mockReset();
  vi.mocked(http.upload).mockReset();
}

/** The built-in administrator: may create packages and campaigns and provision the key. */
export function adminSession(): Session {
  const info = userInfo('administrator', { id: ME });
  return { info, permissions: permissionsOf(info), routes: info.routes };
}

/** A viewer who may only these `actions` on firmware: never create, nor see the bench's key. */
export function readerSession(actions: Action[]): Session {
  return {
    info: userInfo('viewer', { id: ME }),
    permissions: [{ permissionId: 'firmware', actions, scope: 'all' }],
    routes: [],
  };
}

// Plain selectors: role queries over a whole antd table are slow in jsdom.
export const rows = () => [...document.querySelectorAll<HTMLElement>('tr[data-row-key]')];
