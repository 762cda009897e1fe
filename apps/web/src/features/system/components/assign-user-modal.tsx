import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { userAssignSchema, type UserView } from '@liftlink/protocol';
import { FormModal } from '../../../components/form-modal.tsx';
import { zodRule } from '../../../lib/zod-rule.ts';
import { systemApi, useSystemMutation } from '../api/system-api.ts';
import { OrgSelect, RoleSelect } from './org-role-selects.tsx';

interface Values {
  orgId: string;
  roleId: string;
}

/** Puts an account awaiting an organization into one, with a role (docs/product.md, "Invite codes"). */
export function AssignUserModal({ user, onClose }: { user: UserView | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const open = user !== null;
  const assign = useSystemMutation((values: Values) =>
    systemApi.assignUser({ id: user?.id ?? '', ...values }),
  );
  return (
    <FormModal
      open={open}
      title={t('system.user.assignTitle', { name: user?.username ?? '' })}
      form={form}
      initialValues={user ? { roleId: user.role.id } : undefined}
      save={(values) => assign.mutateAsync(values)}
      onClose={onClose}
      testId="user-assign-modal"
    >
      <Form.Item
        name="orgId"
        label={t('account.organization')}
        rules={[zodRule(userAssignSchema.shape.orgId)]}
      >
        <OrgSelect enabled={open} data-testid="assign-org" />
      </Form.Item>
      <Form.Item
        name="roleId"
        label={t('account.role')}
        rules={[zodRule(userAssignSchema.shape.roleId)]}
      >
        <RoleSelect enabled={open} data-testid="assign-role" />
      </Form.Item>
    </FormModal>
  );
}
