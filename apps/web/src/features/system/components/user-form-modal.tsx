import { Form, Input, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, userCreateSchema, userUpdateSchema, type UserView } from '@liftlink/protocol';
import { FormModal } from '../../../components/form-modal.tsx';
import { PasswordStrength } from '../../../components/password-strength.tsx';
import { LANGUAGE_LABELS } from '../../../lib/i18n/language.ts';
import { zodRule } from '../../../lib/zod-rule.ts';
import { systemApi, useSystemMutation } from '../api/system-api.ts';
import { OrgSelect, RoleSelect } from './org-role-selects.tsx';

interface Values {
  username: string;
  name: string;
  email?: string;
  mobile?: string;
  password?: string;
  roleId: string;
  orgId?: string | null;
  language?: string;
  twoStep?: boolean;
}

const create = userCreateSchema.shape;
const update = userUpdateSchema.shape;

/** Create a user, or edit one (`user` given). */
export function UserFormModal({
  open,
  user,
  onClose,
}: {
  open: boolean;
  user: UserView | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const password = Form.useWatch('password', form) ?? '';
  const save = useSystemMutation((values: Values) => {
    const blankToNull = (v: string | undefined) => (v && v.trim() ? v.trim() : null);
    if (user) {
      return systemApi.userAction('update', {
        id: user.id,
        name: values.name,
        email: blankToNull(values.email),
        mobile: blankToNull(values.mobile),
        roleId: values.roleId,
        orgId: values.orgId ?? null,
        language: values.language,
        twoStep: values.twoStep ?? false,
      });
    }
    return systemApi.userAction('create', {
      username: values.username,
      name: values.name,
      ...(blankToNull(values.email) ? { email: values.email?.trim() } : {}),
      ...(blankToNull(values.mobile) ? { mobile: values.mobile?.trim() } : {}),
      password: values.password,
      roleId: values.roleId,
      orgId: values.orgId ?? null,
      language: values.language,
    });
  });

  return (
    <FormModal
      open={open}
      title={user ? t('system.user.edit') : t('system.user.create')}
      form={form}
      initialValues={
        user
          ? {
              username: user.username,
              name: user.name,
              email: user.email ?? '',
              mobile: user.mobile ?? '',
              roleId: user.role.id,
              orgId: user.organization?.id ?? null,
              language: user.language,
              twoStep: user.twoStep,
            }
          : undefined
      }
      save={(values) => save.mutateAsync(values)}
      onClose={onClose}
      testId="user-form-modal"
    >
      <Form.Item
        name="username"
        label={t('account.username')}
        rules={user ? [] : [zodRule(create.username)]}
      >
        <Input disabled={user !== null} autoComplete="off" />
      </Form.Item>
      <Form.Item name="name" label={t('account.name')} rules={[zodRule(create.name)]}>
        <Input />
      </Form.Item>
      <Form.Item
        name="email"
        label={t('account.email')}
        rules={[zodRule(user ? update.email : create.email)]}
      >
        <Input inputMode="email" />
      </Form.Item>
      <Form.Item
        name="mobile"
        label={t('account.mobile')}
        rules={[zodRule(user ? update.mobile : create.mobile)]}
      >
        <Input inputMode="tel" />
      </Form.Item>
      {user ? null : (
        <Form.Item
          name="password"
          label={t('password.initial')}
          rules={[zodRule(create.password)]}
          extra={password ? <PasswordStrength password={password} /> : null}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      )}
      <Form.Item name="roleId" label={t('account.role')} rules={[zodRule(create.roleId)]}>
        <RoleSelect enabled={open} data-testid="user-role" />
      </Form.Item>
      <Form.Item name="orgId" label={t('account.organization')}>
        <OrgSelect enabled={open} allowClear />
      </Form.Item>
      <Form.Item name="language" label={t('layout.language')}>
        <Select
          allowClear
          options={LANGUAGES.map((lng) => ({ value: lng, label: LANGUAGE_LABELS[lng] }))}
        />
      </Form.Item>
      {user ? (
        <Form.Item
          name="twoStep"
          label={t('system.user.twoStep')}
          valuePropName="checked"
          extra={t('system.user.twoStepHelp')}
        >
          <Switch />
        </Form.Item>
      ) : null}
    </FormModal>
  );
}
