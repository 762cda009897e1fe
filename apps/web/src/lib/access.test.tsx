import { beforeAll, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { Access, liftAllows, permissionsOf } from './access.tsx';
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
      { permissionId: 'alert', actionEntitySet: [{ action: 'query' }], actionList: [], scope: 'own' },
    ];
    expect(permissionsOf(info)).toEqual([{ permissionId: 'alert', actions: ['query'], scope: 'own' }]);
  });

  it("shows a lift's controls from the server's answer for that lift, whatever the role", () => {
    // An administrator's session, but the server allowed only reading this lift.
    const lift = { access: { allowed: ['lift.get' as const], configRole: 'operator' as const } };
    expect(liftAllows(lift, 'lift.get')).toBe(true);
    expect(liftAllows(lift, 'liftControl.enable')).toBe(false);
    expect(liftAllows({}, 'lift.get')).toBe(false);
  });
});
