import { useState } from 'react';
import { Alert, Button, Form, Input, Typography } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { PASSWORD_MIN, registerFormSchema, registerSchema } from '@liftlink/protocol';
import { CaptchaField } from '../../../components/captcha-button.tsx';
import { PasswordStrength, strengthOf } from '../../../components/password-strength.tsx';
import { applyServerIssues, errorMessage } from '../../../lib/form-errors.ts';
import { translateIssue } from '../../../lib/i18n/i18n.ts';
import { currentLanguage } from '../../../lib/i18n/language.ts';
import { sameAsRule, zodRule } from '../../../lib/zod-rule.ts';
import { authApi } from '../api/auth-api.ts';

interface RegisterValues {
  email: string;
  username: string;
  password: string;
  confirm: string;
  mobile: string;
  captcha: string;
  inviteCode?: string;
}

const shape = registerSchema.shape;
const passwordRules = [
  zodRule(shape.password),
  {
    // Spec section 5: "The password is not strong enough." below medium strength.
    validator: async (_rule: unknown, value: unknown) => {
      if (typeof value !== 'string' || value.length === 0) return;
      const level = await strengthOf(value);
      if (level === 'low') throw new Error(translateIssue('validation.passwordWeak'));
    },
  },
];

/** Registration (spec sections 2 and 5): email, username, password with strength meter, confirm, mobile, code; an optional invite code (docs/product.md, "Invite codes"). */
export default function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<RegisterValues>();
  const password = Form.useWatch('password', form) ?? '';
  const [failure, setFailure] = useState<string | null>(null);
  const register = useMutation({ mutationFn: authApi.register });

  const onFinish = async ({ confirm: _confirm, inviteCode, ...values }: RegisterValues) => {
    setFailure(null);
    try {
      await register.mutateAsync({
        ...values,
        language: currentLanguage(),
        ...(inviteCode?.trim() ? { inviteCode: inviteCode.trim() } : {}),
      });
      await navigate(`/user/register-result?email=${encodeURIComponent(values.email)}`);
    } catch (error) {
      if (!applyServerIssues(form, error)) setFailure(errorMessage(error));
    }
  };

  return (
    <div className="register-page user-wide">
      <Typography.Title level={4} style={{ marginBottom: 20 }}>
        {t('register.title')}
      </Typography.Title>
      {failure ? (
        <Alert
          type="error"
          showIcon
          title={failure}
          style={{ marginBottom: 20 }}
          data-testid="register-error"
        />
      ) : null}
      <Form<RegisterValues>
        form={form}
        size="large"
        onFinish={(values) => void onFinish(values)}
        data-testid="register-form"
      >
        <Form.Item name="email" rules={[zodRule(shape.email)]}>
          <Input
            placeholder={t('register.email.placeholder')}
            autoComplete="email"
            inputMode="email"
          />
        </Form.Item>
        <Form.Item name="username" rules={[zodRule(shape.username)]}>
          <Input placeholder={t('register.username.placeholder')} autoComplete="username" />
        </Form.Item>
        <Form.Item
          name="password"
          rules={passwordRules}
          extra={
            password.length > 0 ? (
              <PasswordStrength password={password} />
            ) : (
              t('password.hint', { min: PASSWORD_MIN })
            )
          }
        >
          <Input.Password
            placeholder={t('register.password.placeholder')}
            autoComplete="new-password"
          />
        </Form.Item>
        <Form.Item
          name="confirm"
          dependencies={['password']}
          rules={[
            zodRule(registerFormSchema.shape.confirm),
            sameAsRule('password', 'validation.passwordMismatch'),
          ]}
        >
          <Input.Password
            placeholder={t('register.confirm.placeholder')}
            autoComplete="new-password"
          />
        </Form.Item>
        <Form.Item name="mobile" rules={[zodRule(shape.mobile)]}>
          <Input
            placeholder={t('register.mobile.placeholder')}
            autoComplete="tel"
            inputMode="tel"
          />
        </Form.Item>
        <CaptchaField
          form={form}
          rules={[zodRule(shape.captcha)]}
          placeholder={t('register.captcha.placeholder')}
        />
        {/* An organization's invite code (optional): the new account joins it at once. */}
        <Form.Item
          name="inviteCode"
          rules={[zodRule(shape.inviteCode)]}
          extra={t('invite.codeHint')}
        >
          <Input
            placeholder={t('invite.codeOptional')}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            data-testid="register-invite-code"
          />
        </Form.Item>
        <Form.Item>
          <div className="login-form-row">
            <Button
              type="primary"
              htmlType="submit"
              loading={register.isPending}
              data-testid="register-submit"
            >
              {t('register.submit')}
            </Button>
            <Link to="/user/login">{t('register.toLogin')}</Link>
          </div>
        </Form.Item>
      </Form>
    </div>
  );
}
