import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ACTIONS,
  BUILT_IN_ROLES,
  PERMISSION_IDS,
  SCOPES,
  canonicalPermissions,
  grantsBeyond,
  hasPermission,
  scopeOf,
  scopesFor,
  type Permission,
  type PermissionCheck,
} from './permission-rules.ts';
import { permissionInputSchema, permissionSchema } from './permissions.ts';

const permission = fc.record({
  permissionId: fc.constantFrom(...PERMISSION_IDS),
  actions: fc.subarray([...ACTIONS]),
  scope: fc.constantFrom(...SCOPES),
});
const check = fc.tuple(fc.constantFrom(...PERMISSION_IDS), fc.constantFrom(...ACTIONS)).map(([id, a]): PermissionCheck => `${id}.${a}`);

describe('scoped permissions', () => {
  it('grants an action in the widest scope of the entries that hold it', () => {
    const perms: Permission[] = [
      { permissionId: 'lift', actions: ['query', 'get'], scope: 'own' },
      { permissionId: 'lift', actions: ['query'], scope: 'all' },
    ];
    expect(scopeOf(perms, 'lift.query')).toBe('all');
    expect(scopeOf(perms, 'lift.get')).toBe('own');
    expect(scopeOf(perms, 'lift.edit')).toBeNull();
    expect(hasPermission(perms, 'lift.get')).toBe(true);
    expect(hasPermission(perms, 'liftControl.enable')).toBe(false);
  });

  it('keeps what a role may do when stored canonical', () => {
    fc.assert(
      fc.property(fc.array(permission, { maxLength: 8 }), check, (perms, asked) => {
        const canonical = canonicalPermissions(perms);
        expect(scopeOf(canonical, asked)).toBe(scopeOf(perms, asked));
        expect(canonicalPermissions(canonical)).toEqual(canonical);
      }),
      { numRuns: 300 },
    );
  });

  it('finds every grant beyond the granter, and none within', () => {
    fc.assert(
      fc.property(fc.array(permission, { maxLength: 6 }), fc.array(permission, { maxLength: 6 }), (granter, wanted) => {
        const beyond = new Set(grantsBeyond(granter, wanted));
        for (const p of wanted) {
          for (const a of p.actions) {
            const held = scopeOf(granter, `${p.permissionId}.${a}`);
            const within = held !== null && SCOPES.indexOf(held) >= SCOPES.indexOf(p.scope);
            expect(beyond.has(`${p.permissionId}.${a}`) || within).toBe(true);
          }
        }
        expect(grantsBeyond(wanted, wanted)).toEqual([]);
      }),
    );
  });

  it('gives the administrator everything everywhere and the other built-in roles their organization', () => {
    for (const p of BUILT_IN_ROLES.administrator.permissions) expect(p.scope).toBe('all');
    for (const role of ['manufacturerEngineer', 'operator', 'viewer'] as const) {
      for (const p of BUILT_IN_ROLES[role].permissions) expect(p.scope).toBe(scopesFor(p.permissionId).length > 1 ? 'served' : 'all');
    }
  });

  it('accepts only the scopes a permission can take; a request without one gets the old reach', () => {
    expect(permissionSchema.safeParse({ permissionId: 'user', actions: ['query'], scope: 'own' }).success).toBe(false);
    expect(permissionSchema.safeParse({ permissionId: 'lift', actions: ['query'], scope: 'own' }).success).toBe(true);
    expect(permissionSchema.safeParse({ permissionId: 'lift', actions: ['query'] }).success).toBe(false);
    expect(permissionInputSchema.parse({ permissionId: 'lift', actions: ['query'] })).toEqual({ permissionId: 'lift', actions: ['query'], scope: 'served' });
    expect(permissionInputSchema.parse({ permissionId: 'document', actions: ['query'] })).toEqual({ permissionId: 'document', actions: ['query'], scope: 'all' });
    expect(permissionInputSchema.safeParse({ permissionId: 'lift', actions: ['query'], scope: 'galaxy' }).success).toBe(false);
  });
});
