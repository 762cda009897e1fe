/**
 * What the organization page tests share: an organization as the server lists it, and the
 * page rendered for the administrator with only the given rights on organizations.
 * Each test file mocks `http` itself:
 *
 *   vi.mock('../../../lib/http.ts', async (importOriginal) => ({
 *     ...(await importOriginal<typeof HttpModule>()), http: { get: vi.fn(), post: vi.fn() } }));
 */
import type { Action, OrgView, Permission } from '@liftlink/protocol';
import { renderAt, userInfo } from '../../../test/render.tsx';
import OrgsPage from './orgs-page.tsx';

export const ORGS_URL = '/auth/access/system/orgs';

export const ORG: OrgView = {
  id: '77777777-7777-4777-8777-777777777777',
  name: 'Metro Lifts',
  kind: 'operator',
  timeZone: 'UTC',
  userCount: 3,
  liftCount: 2,
};

/** The organizations page for one who may do `orgActions` on them; with none, may list only users. */
export function renderOrgsPage(orgActions: Action[]) {
  const permissions: Permission[] = orgActions.length
    ? [{ permissionId: 'org', actions: orgActions, scope: 'all' }]
    : [{ permissionId: 'user', actions: ['query'], scope: 'all' }];
  renderAt(<OrgsPage />, { session: { info: userInfo('administrator'), permissions, routes: [] } });
}
