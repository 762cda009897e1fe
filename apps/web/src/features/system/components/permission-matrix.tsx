import { Checkbox, Select, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  ACTIONS,
  PERMISSION_IDS,
  SCOPES,
  defaultScope,
  scopesFor,
  widerScope,
  type Action,
  type Permission,
  type PermissionId,
  type Scope,
} from '@liftlink/protocol';

/** Per permission: its actions and one scope (the widest the role holds it in). */
type Grants = Partial<Record<PermissionId, { actions: Action[]; scope: Scope }>>;

export function toGrants(
  permissions: readonly { permissionId: string; actions: readonly string[]; scope?: string }[],
): Grants {
  const grants: Grants = {};
  for (const p of permissions) {
    if (!(PERMISSION_IDS as readonly string[]).includes(p.permissionId)) continue;
    const id = p.permissionId as PermissionId;
    const scope = (SCOPES as readonly string[]).includes(p.scope ?? '')
      ? (p.scope as Scope)
      : defaultScope(id);
    const before = grants[id];
    const actions = p.actions.filter((a): a is Action =>
      (ACTIONS as readonly string[]).includes(a),
    );
    grants[id] = {
      actions: ACTIONS.filter((a) => actions.includes(a) || before?.actions.includes(a)),
      scope: widerScope(before?.scope ?? null, scope) ?? scope,
    };
  }
  return grants;
}

export function toPermissions(grants: Grants): Permission[] {
  return PERMISSION_IDS.flatMap((permissionId) => {
    const grant = grants[permissionId];
    const actions = ACTIONS.filter((a) => grant?.actions.includes(a));
    return actions.length > 0
      ? [{ permissionId, actions, scope: grant?.scope ?? defaultScope(permissionId) }]
      : [];
  });
}

/**
 * The permission x action matrix of a role: one row per permission, one column per action,
 * and how far the row reaches (own, served, all lifts; administration and documents: all).
 */
export function PermissionMatrix({
  value = {},
  onChange,
  disabled,
}: {
  value?: Grants;
  onChange?: (next: Grants) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const set = (id: PermissionId, actions: Action[], scope = value[id]?.scope ?? defaultScope(id)) =>
    onChange?.({ ...value, [id]: { actions: ACTIONS.filter((a) => actions.includes(a)), scope } });
  return (
    <Table<{ id: PermissionId }>
      className="matrix-table"
      size="small"
      pagination={false}
      rowKey="id"
      scroll={{ x: 'max-content' }}
      dataSource={PERMISSION_IDS.map((id) => ({ id }))}
      data-testid="permission-matrix"
      columns={[
        {
          key: 'permission',
          title: t('system.role.permission'),
          fixed: 'left',
          render: (_v, { id }) => {
            const granted = value[id]?.actions ?? [];
            return (
              <Checkbox
                disabled={disabled}
                checked={granted.length === ACTIONS.length}
                indeterminate={granted.length > 0 && granted.length < ACTIONS.length}
                onChange={(e) => set(id, e.target.checked ? [...ACTIONS] : [])}
              >
                {t(`permission.${id}`)}
              </Checkbox>
            );
          },
        },
        {
          key: 'scope',
          title: t('system.role.scope'),
          // Only permissions over lifts have a scope to choose; the others show a dash.
          render: (_v, { id }) =>
            scopesFor(id).length < 2 ? (
              <span aria-hidden="true">—</span>
            ) : (
              <Select<Scope>
                size="small"
                disabled={disabled}
                value={value[id]?.scope ?? defaultScope(id)}
                onChange={(scope) => set(id, value[id]?.actions ?? [], scope)}
                options={scopesFor(id).map((s) => ({ value: s, label: t(`scope.${s}`) }))}
                popupMatchSelectWidth={false}
                style={{ width: 200 }}
                aria-label={`${t(`permission.${id}`)} · ${t('system.role.scope')}`}
                data-testid={`scope-${id}`}
              />
            ),
        },
        ...ACTIONS.map((action) => ({
          key: action,
          title: t(`action.${action}`),
          align: 'center' as const,
          render: (_v: unknown, { id }: { id: PermissionId }) => {
            const granted = value[id]?.actions ?? [];
            return (
              <Checkbox
                disabled={disabled}
                checked={granted.includes(action)}
                aria-label={`${t(`permission.${id}`)} · ${t(`action.${action}`)}`}
                data-testid={`grant-${id}-${action}`}
                onChange={(e) =>
                  set(
                    id,
                    e.target.checked ? [...granted, action] : granted.filter((a) => a !== action),
                  )
                }
              />
            );
          },
        })),
      ]}
    />
  );
}
