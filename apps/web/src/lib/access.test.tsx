import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { ACTIONS, hasPermission, PERMISSION_IDS, type PermissionCheck } from '@liftlink/protocol';
import { Access, holds, permissionsOf } from './access.tsx';
import type { Session } from './session.ts';
import { renderAt, useEnglish, userInfo } from '../test/render.tsx';

function sessionOf(role: 'administrator' | 'viewer'): Session {
  const info = userInfo(role);
  return { info, permissions: permissionsOf(info), routes: info.routes };
}

beforeAll(useEnglish);

describe('permission check `permissionId.action`', () => {
  it('keeps a control for a role that holds the action and removes it otherwise', async () => {
    const ui = (
      <>
        <Access check="user.add">
          <button type="button">add user</button>
        </Access>
        <Access check="lift.query">
          <button type="button">lifts</button>
        </Access>
      </>
    );
    const viewer = renderAt(ui, { session: sessionOf('viewer') });
    expect(await screen.findByText('lifts')).toBeInTheDocument();
    expect(screen.queryByText('add user')).toBeNull();
    viewer.unmount();
    renderAt(ui, { session: sessionOf('administrator') });
    expect(await screen.findByText('add user')).toBeInTheDocument();
  });

  it('reads actionEntitySet when actionList is missing', () => {
    const info = userInfo('viewer');
    info.role.permissions = [
      { permissionId: 'alert', actionEntitySet: [{ action: 'query' }], actionList: [] },
    ];
    expect(permissionsOf(info)).toEqual([{ permissionId: 'alert', actions: ['query'] }]);
  });

  it("answers every check as the protocol's hasPermission does", () => {
    const permission = fc.record({
      permissionId: fc.constantFrom(...PERMISSION_IDS),
      actions: fc.subarray([...ACTIONS]),
    });
    const check = fc
      .tuple(fc.constantFrom(...PERMISSION_IDS), fc.constantFrom(...ACTIONS))
      .map(([id, action]): PermissionCheck => `${id}.${action}`);
    fc.assert(
      fc.property(fc.array(permission, { maxLength: 6 }), check, (permissions, asked) => {
        expect(holds(permissions, asked)).toBe(hasPermission(permissions, asked));
      }),
      { numRuns: 3000 },
    );
  });
});
