import { Checkbox, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  ACTIONS,
  PERMISSION_IDS,
  type Action,
  type Permission,
  type PermissionId,
} from '@liftlink/protocol';

type Grants = Partial<Record<PermissionId, Action[]>>;

export function toGrants(
  permissions: readonly { permissionId: string; actions: readonly string[] }[],
): Grants {
  const grants: Grants = {};
  for (const p of permissions) {
    if ((PERMISSION_IDS as readonly string[]).includes(p.permissionId)) {
      grants[p.permissionId as PermissionId] = p.actions.filter((a): a is Action =>
        (ACTIONS as readonly string[]).includes(a),
      );
    }
  }
  return grants;
}

export function toPermissions(grants: Grants): Permission[] {
  return PERMISSION_IDS.flatMap((permissionId) => {
    const actions = ACTIONS.filter((a) => grants[permissionId]?.includes(a));
    return actions.length > 0 ? [{ permissionId, actions }] : [];
  });
}

/** The permission x action matrix of a role: one row per permission, one column per action. */
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
  const set = (id: PermissionId, actions: Action[]) =>
    onChange?.({ ...value, [id]: ACTIONS.filter((a) => actions.includes(a)) });
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
            const granted = value[id] ?? [];
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
        ...ACTIONS.map((action) => ({
          key: action,
          title: t(`action.${action}`),
          align: 'center' as const,
          render: (_v: unknown, { id }: { id: PermissionId }) => {
            const granted = value[id] ?? [];
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
