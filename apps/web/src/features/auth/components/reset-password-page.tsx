import { useState } from 'react';
import { Alert, Button, Form, Input, Result, Typography } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { passwordChangeFormSchema, PASSWORD_MIN, resetPasswordSchema } from '@liftlink/protocol';
import { PasswordStrength } from '../../../components/password-strength.tsx';
import { applyServerIssues, errorMessage } from '../../../lib/form-errors.ts';
import { sameAsRule, zodRule } from '../../../lib/zod-rule.ts';
import { authApi } from '../api/auth-api.ts';

/** The page a reset mail links to: `/user/reset-password?token=...`. */
export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [form] = Form.useForm<{ password: string; confirm: string }>();
  const password = Form.useWatch('password', form) ?? '';
  const [failure, setFailure] = useState<string | null>(null);
  const reset = useMutation({ mutationFn: (value: string) => authApi.resetPassword(token, value) });

  if (reset.isSuccess) {
    return (
      <Result
        status="success"
        title={t('reset.done')}
        extra={
          <Link to="/user/login">
            <Button type="primary">{t('recover.toLogin')}</Button>
          </Link>
        }
      />
    );
  }

  return (
    <div>
      <Typography.Title level={4}>{t('reset.title')}</Typography.Title>
      {failure ? (
        <Alert type="error" showIcon title={failure} style={{ marginBottom: 16 }} />
      ) : null}
      <Form
        form={form}
        size="large"
        onFinish={({ password: value }) => {
          setFailure(null);
          reset.mutate(value, {
            onError: (error) => applyServerIssues(form, error) || setFailure(errorMessage(error)),
          });
        }}
      >
        <Form.Item
          name="password"
          rules={[zodRule(resetPasswordSchema.shape.password)]}
          extra={
            password.length > 0 ? (
              <PasswordStrength password={password} />
            ) : (
              t('password.hint', { min: PASSWORD_MIN })
            )
          }
        >
          <Input.Password placeholder={t('password.new')} autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm"
          dependencies={['password']}
          rules={[
            zodRule(passwordChangeFormSchema.shape.confirm),
            sameAsRule('password', 'validation.passwordMismatch'),
          ]}
        >
          <Input.Password placeholder={t('password.confirm')} autoComplete="new-password" />
        </Form.Item>
        <Form.Item>
          <Button
            type="primary"
            htmlType="submit"
            block
            loading={reset.isPending}
            disabled={token.length === 0}
          >
            {t('reset.submit')}
          </Button>
        </Form.Item>
        <Link to="/user/login">{t('recover.toLogin')}</Link>
      </Form>
    </div>
  );
}
