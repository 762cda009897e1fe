import { App, Form, Input, Modal } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { passwordChangeFormSchema } from '@liftlink/protocol';
import { ApiError } from '../../../lib/http.ts';
import { applyServerIssues, errorMessage } from '../../../lib/form-errors.ts';
import { translateError } from '../../../lib/i18n/i18n.ts';
import { sameAsRule, zodRule } from '../../../lib/zod-rule.ts';
import { useResetOnOpen } from '../../../lib/use-reset-on-open.ts';
import { accountApi } from '../api/account-api.ts';

interface Values {
  oldPassword: string;
  password: string;
  confirm: string;
}

const shape = passwordChangeFormSchema.shape;

/**
 * Change password (spec section 5): old, new, confirm; fields reset when it opens; it
 * closes on success or cancel; the server's message is shown either way.
 */
export function ChangePasswordModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const change = useMutation({ mutationFn: accountApi.changePassword });

  useResetOnOpen(open, () => form.resetFields());

  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    try {
      await change.mutateAsync({ oldPassword: values.oldPassword, password: values.password });
      void message.success(t('password.changed'));
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.code === 'auth.oldPasswordWrong') {
        form.setFields([
          { name: 'oldPassword', errors: [translateError(error.code, error.message)] },
        ]);
      } else if (error instanceof ApiError && error.code === 'auth.passwordCommon') {
        form.setFields([{ name: 'password', errors: [translateError(error.code, error.message)] }]);
      } else applyServerIssues(form, error);
      const text = errorMessage(error);
      if (text) void message.error(text);
    }
  };

  return (
    <Modal
      open={open}
      title={t('password.change.title')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={change.isPending}
      onOk={() => void submit()}
      onCancel={onClose}
      forceRender
      data-testid="change-password-modal"
    >
      <Form form={form} layout="vertical" requiredMark={false} onFinish={() => void submit()}>
        <Form.Item
          name="oldPassword"
          label={t('password.old')}
          rules={[zodRule(shape.oldPassword)]}
        >
          <Input.Password autoComplete="current-password" data-testid="old-password" />
        </Form.Item>
        <Form.Item name="password" label={t('password.new')} rules={[zodRule(shape.password)]}>
          <Input.Password autoComplete="new-password" data-testid="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('password.confirm')}
          dependencies={['password']}
          rules={[zodRule(shape.confirm), sameAsRule('password', 'validation.passwordMismatch')]}
        >
          <Input.Password autoComplete="new-password" data-testid="confirm-password" />
        </Form.Item>
        <button type="submit" hidden />
      </Form>
    </Modal>
  );
}
