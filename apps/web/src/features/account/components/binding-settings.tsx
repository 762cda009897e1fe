import { App, Button, Card, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { bindEmailSchema, bindMobileSchema } from '@liftlink/protocol';
import { CaptchaField } from '../../../components/captcha-button.tsx';
import { applyServerIssues, errorMessage } from '../../../lib/form-errors.ts';
import { useSession } from '../../../lib/session.ts';
import { zodRule } from '../../../lib/zod-rule.ts';
import { useBindEmail, useBindMobile } from '../api/account-api.ts';

/** Binding: the email address and the mobile number (confirmed by a texted code). */
export function BindingSettings() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { info } = useSession();
  const [emailForm] = Form.useForm<{ email: string }>();
  const [mobileForm] = Form.useForm<{ mobile: string; captcha: string }>();
  const bindEmail = useBindEmail();
  const bindMobile = useBindMobile();
  const onError = (form: Parameters<typeof applyServerIssues>[0]) => (error: unknown) => {
    if (!applyServerIssues(form, error)) {
      const text = errorMessage(error);
      if (text) void message.error(text);
    }
  };

  return (
    <div style={{ display: 'grid', gap: 16, maxWidth: 560 }} data-testid="binding-settings">
      <Card size="small" title={t('account.email')} extra={info.email ?? t('account.notBound')}>
        <Form
          form={emailForm}
          layout="vertical"
          requiredMark={false}
          initialValues={{ email: info.email ?? '' }}
          onFinish={({ email }) =>
            bindEmail.mutate(email, {
              onSuccess: () => void message.success(t('common.saved')),
              onError: onError(emailForm),
            })
          }
        >
          <Form.Item
            name="email"
            label={t('account.newEmail')}
            rules={[zodRule(bindEmailSchema.shape.email)]}
          >
            <Input inputMode="email" autoComplete="email" />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={bindEmail.isPending}>
            {t('account.bind')}
          </Button>
        </Form>
      </Card>
      <Card size="small" title={t('account.mobile')} extra={info.mobile ?? t('account.notBound')}>
        <Form
          form={mobileForm}
          layout="vertical"
          requiredMark={false}
          onFinish={(values) =>
            bindMobile.mutate(values, {
              onSuccess: () => {
                mobileForm.resetFields();
                void message.success(t('common.saved'));
              },
              onError: onError(mobileForm),
            })
          }
        >
          <Form.Item
            name="mobile"
            label={t('account.newMobile')}
            rules={[zodRule(bindMobileSchema.shape.mobile)]}
          >
            <Input inputMode="tel" autoComplete="tel" />
          </Form.Item>
          <CaptchaField
            form={mobileForm}
            rules={[zodRule(bindMobileSchema.shape.captcha)]}
            placeholder={t('login.captcha.placeholder')}
          />
          <Button type="primary" htmlType="submit" loading={bindMobile.isPending}>
            {t('account.bind')}
          </Button>
        </Form>
      </Card>
    </div>
  );
}
