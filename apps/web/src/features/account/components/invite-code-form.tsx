import { App, Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { inviteRedeemSchema } from '@liftlink/protocol';
import { applyServerIssues, showError } from '../../../lib/form-errors.ts';
import { zodRule } from '../../../lib/zod-rule.ts';
import { useRedeemInvite } from '../api/account-api.ts';

/**
 * Enter an invite code to join its organization (docs/product.md, "Invite codes"): case,
 * spaces and dashes do not matter; a wrong code shows on the field.
 */
export function InviteCodeForm({ onJoined }: { onJoined?: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ code: string }>();
  const redeem = useRedeemInvite();

  const submit = async ({ code }: { code: string }) => {
    try {
      const joined = await redeem.mutateAsync(code);
      void message.success(t('invite.joined', { org: joined.organization.name }));
      form.resetFields();
      onJoined?.();
    } catch (error) {
      if (!applyServerIssues(form, error)) showError(message, error);
    }
  };

  return (
    <Form<{ code: string }>
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={(values) => void submit(values)}
      data-testid="invite-code-form"
    >
      <Form.Item
        name="code"
        label={t('invite.code')}
        rules={[zodRule(inviteRedeemSchema.shape.code)]}
      >
        <Input
          placeholder={t('invite.codePlaceholder')}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          style={{ maxWidth: 320 }}
          data-testid="invite-code-input"
        />
      </Form.Item>
      <Form.Item>
        <Button
          type="primary"
          htmlType="submit"
          loading={redeem.isPending}
          data-testid="invite-code-submit"
        >
          {t('invite.redeem')}
        </Button>
      </Form.Item>
    </Form>
  );
}
