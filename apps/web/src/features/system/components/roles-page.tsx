import { useState } from 'react';
import { Button, Card, Form, Input, Space, Table, Tag } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ACTIONS, roleCreateSchema, type RoleView } from '@liftlink/protocol';
import { FormModal } from '../../../components/form-modal.tsx';
import { PageContainer } from '../../../components/page-container.tsx';
import { Access, useAccess } from '../../../lib/access.tsx';
import { roleLabel } from '../../../lib/labels.ts';
import { zodRule } from '../../../lib/zod-rule.ts';
import { systemApi, useRoles, useSystemMutation } from '../api/system-api.ts';
import { DeleteButton } from './delete-button.tsx';
import { PermissionMatrix, toGrants, toPermissions } from './permission-matrix.tsx';

interface Values {
  name: string;
  roleType?: string;
  grants: ReturnType<typeof toGrants>;
}

function RoleModal({
  open,
  role,
  onClose,
}: {
  open: boolean;
  role: RoleView | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const save = useSystemMutation((values: Values) => {
    const body = {
      name: values.name,
      ...(values.roleType ? { roleType: values.roleType } : {}),
      permissions: toPermissions(values.grants ?? {}),
    };
    return role
      ? systemApi.roleAction('update', { id: role.id, ...body })
      : systemApi.roleAction('create', body);
  });

  return (
    <FormModal
      open={open}
      width={1120}
      title={role ? t('system.role.edit') : t('system.role.create')}
      form={form}
      initialValues={
        role
          ? { name: role.name, roleType: role.roleType, grants: toGrants(role.permissions) }
          : { grants: {} }
      }
      save={(values) => save.mutateAsync(values)}
      onClose={onClose}
      testId="role-modal"
    >
      <Space wrap align="start" size={16}>
        <Form.Item
          name="name"
          label={t('system.role.name')}
          rules={[zodRule(roleCreateSchema.shape.name)]}
        >
          <Input style={{ width: 260 }} />
        </Form.Item>
        <Form.Item
          name="roleType"
          label={t('system.role.type')}
          tooltip={t('system.role.typeHint')}
          rules={[zodRule(roleCreateSchema.shape.roleType)]}
        >
          <Input style={{ width: 200 }} />
        </Form.Item>
      </Space>
      <Form.Item name="grants" label={t('system.role.matrix')}>
        <PermissionMatrix />
      </Form.Item>
    </FormModal>
  );
}

/** Roles and their permission x action x scope matrix. */
export default function RolesPage() {
  const { t } = useTranslation();
  const can = useAccess();
  const roles = useRoles();
  const [editing, setEditing] = useState<{ role: RoleView | null } | null>(null);
  const remove = useSystemMutation((id: string) => systemApi.roleAction('delete', { id }));

  return (
    <PageContainer
      title={t('menu.system.roles')}
      extra={
        <Access check="role.add">
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setEditing({ role: null })}
            data-testid="role-create"
          >
            {t('system.role.create')}
          </Button>
        </Access>
      }
    >
      <Card>
        <Table<RoleView>
          rowKey="id"
          loading={roles.isFetching}
          dataSource={roles.data?.list ?? []}
          pagination={false}
          scroll={{ x: 'max-content' }}
          expandable={{
            expandedRowRender: (role) => (
              <PermissionMatrix value={toGrants(role.permissions)} disabled />
            ),
          }}
          columns={[
            {
              key: 'name',
              title: t('system.role.name'),
              render: (_v, role) => (
                <Space>
                  {roleLabel(role.name)}
                  {role.builtIn ? <Tag>{t('system.role.builtIn')}</Tag> : null}
                </Space>
              ),
            },
            { key: 'type', title: t('system.role.type'), dataIndex: 'roleType' },
            {
              key: 'grants',
              title: t('system.role.grants'),
              render: (_v, role) =>
                t('system.role.grantCount', {
                  permissions: role.permissions.filter((p) => p.actions.length > 0).length,
                  actions: role.permissions.reduce((n, p) => n + p.actions.length, 0),
                  max: ACTIONS.length,
                }),
            },
            { key: 'users', title: t('system.role.users'), dataIndex: 'userCount' },
            {
              key: 'actions',
              title: t('common.actions'),
              render: (_v, role) => (
                <Space size={4}>
                  {can('role.edit') ? (
                    <Button size="small" type="link" onClick={() => setEditing({ role })}>
                      {t('common.edit')}
                    </Button>
                  ) : null}
                  {can('role.delete') && !role.builtIn ? (
                    <DeleteButton onDelete={() => remove.mutateAsync(role.id)} />
                  ) : null}
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <RoleModal
        open={editing !== null}
        role={editing?.role ?? null}
        onClose={() => setEditing(null)}
      />
    </PageContainer>
  );
}
