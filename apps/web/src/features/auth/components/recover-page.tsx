import { useState } from 'react';
import { Alert, Button, Form, Input, Result, Typography } from 'antd';
import { MailOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { forgePasswordSchema, RESET_VALID_MS } from '@liftlink/protocol';
import { applyServerIssues, errorMessage } from '../../../lib/form-errors.ts';
import { zodRule } from '../../../lib/zod-rule.ts';
import { authApi } from '../api/auth-api.ts';

/** Forgot password: ask for a reset link by mail. */
export default function RecoverPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ email: string }>();
  const [failure, setFailure] = useState<string | null>(null);
  const recover = useMutation({ mutationFn: authApi.forgePassword });

  if (recover.isSuccess) {
    return (
      <Result
        status="success"
        title={t('recover.sent.title')}
        subTitle={t('recover.sent.text', { minutes: RESET_VALID_MS / 60_000 })}
        extra={
          <Link to="/user/login">
            <Button type="primary">{t('recover.toLogin')}</Button>
          </Link>
        }
        data-testid="recover-sent"
      />
    );
  }

  return (
    <div>
      <Typography.Title level={4}>{t('recover.title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('recover.text')}</Typography.Paragraph>
      {failure ? (
        <Alert type="error" showIcon title={failure} style={{ marginBottom: 16 }} />
      ) : null}
      <Form
        form={form}
        size="large"
        onFinish={({ email }) => {
          setFailure(null);
          recover.mutate(email, {
            onError: (error) => applyServerIssues(form, error) || setFailure(errorMessage(error)),
          });
        }}
      >
        <Form.Item name="email" rules={[zodRule(forgePasswordSchema.shape.email)]}>
          <Input
            prefix={<MailOutlined />}
            placeholder={t('register.email.placeholder')}
            autoComplete="email"
            inputMode="email"
          />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" block loading={recover.isPending}>
            {t('recover.submit')}
          </Button>
        </Form.Item>
        <Link to="/user/login">{t('recover.toLogin')}</Link>
      </Form>
    </div>
  );
}
