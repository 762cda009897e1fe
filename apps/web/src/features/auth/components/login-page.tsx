import { useState } from 'react';
import { Alert, Button, Checkbox, Form } from 'antd';
// Single components, not `Input` with TextArea, OTP and Search attached: a smaller sign-in download.
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { LockOutlined, MobileOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../../lib/feedback.ts';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { loginMobileSchema, loginPasswordSchema, type LoginRequest } from '@liftlink/protocol';
import { CaptchaField } from '../../../components/captcha-button.tsx';
import { ApiError } from '../../../lib/http.ts';
import { errorMessage } from '../../../lib/form-errors.ts';
import { greetingText } from '../../../lib/greeting.ts';
import { safeRedirect } from '../../../lib/session.ts';
import { useSiteInfo } from '../../../lib/site.ts';
import { hasToken, setToken } from '../../../lib/token.ts';
import { zodRule } from '../../../lib/zod-rule.ts';
import { authApi } from '../api/auth-api.ts';
import { LoginTabs } from './login-tabs.tsx';

type LoginTab = 'account' | 'mobile';

interface LoginValues {
  username?: string;
  password?: string;
  mobile?: string;
  captcha?: string;
  remember: boolean;
}

const rules = {
  username: [zodRule(loginPasswordSchema.shape.username)],
  password: [zodRule(loginPasswordSchema.shape.password)],
  mobile: [zodRule(loginMobileSchema.shape.mobile)],
  captcha: [zodRule(loginMobileSchema.shape.captcha)],
};

/** Sign-in (spec sections 2, 8): account and password, or mobile number and texted code. */
export default function LoginPage() {
  const { t } = useTranslation();
  const { notification } = useFeedback();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [searchParams] = useSearchParams();
  const site = useSiteInfo();
  const [form] = Form.useForm<LoginValues>();
  const [tab, setTab] = useState<LoginTab>('account');
  const [failure, setFailure] = useState<string | null>(null);
  // Accounts with two-step sign-in also send a texted code with the password.
  const [twoStep, setTwoStep] = useState(false);
  const login = useMutation({ mutationFn: authApi.login });

  // Spec section 2: a signed-in user opening the login page lands on the workplace.
  if (hasToken() && !login.isSuccess) return <Navigate to="/dashboard/workplace" replace />;

  const onFinish = async (values: LoginValues) => {
    setFailure(null);
    const body: LoginRequest =
      tab === 'account'
        ? {
            type: 'account',
            username: values.username ?? '',
            password: values.password ?? '',
            ...(twoStep && values.captcha ? { captcha: values.captcha } : {}),
            remember: values.remember,
          }
        : {
            type: 'mobile',
            mobile: values.mobile ?? '',
            captcha: values.captcha ?? '',
            remember: values.remember,
          };
    try {
      const result = await login.mutateAsync(body);
      setToken(result.token, result.expiresAt, values.remember);
      queryClient.removeQueries({ queryKey: ['auth'] });
      notification.success({
        key: 'welcome',
        title: t('login.welcome'),
        description: t('login.welcomeBack', { greeting: greetingText() }),
      });
      await navigate(safeRedirect(searchParams.get('redirect')), { replace: true });
    } catch (error) {
      if (
        error instanceof ApiError &&
        (error.code === 'auth.frozen' || error.code === 'auth.pending')
      ) {
        const account = tab === 'account' ? values.username : values.mobile;
        await navigate(
          `/result/fail?reason=${error.code === 'auth.frozen' ? 'frozen' : 'pending'}&account=${encodeURIComponent(account ?? '')}`,
        );
        return;
      }
      if (
        error instanceof ApiError &&
        error.code === 'auth.badCaptcha' &&
        (error.result as { stepCode?: unknown } | null)?.stepCode === true
      ) {
        if (!twoStep) {
          setTwoStep(true);
          return;
        }
      }
      setFailure(errorMessage(error));
    }
  };

  const checkTwoStep = (username: string | undefined) => {
    if (!username) return;
    void authApi.twoStep(username).then(
      (result) => setTwoStep(result.stepCode === true),
      () => undefined,
    );
  };

  const captchaRow = (
    <CaptchaField
      form={form}
      rules={rules.captcha}
      placeholder={t('login.captcha.placeholder')}
      prefix={<SafetyOutlined />}
    />
  );
  const mobileField = (
    <Form.Item name="mobile" rules={rules.mobile}>
      <Input
        prefix={<MobileOutlined />}
        placeholder={t('login.mobile.placeholder')}
        autoComplete="tel"
        inputMode="tel"
      />
    </Form.Item>
  );

  return (
    <div className="login-page">
      <Form<LoginValues>
        form={form}
        size="large"
        initialValues={{ remember: true }}
        onFinish={(values) => void onFinish(values)}
        data-testid="login-form"
      >
        <LoginTabs<LoginTab>
          active={tab}
          onChange={(key) => {
            setTab(key);
            setFailure(null);
          }}
          items={[
            { key: 'account', label: t('login.tab.account') },
            { key: 'mobile', label: t('login.tab.mobile') },
          ]}
        />
        {failure ? (
          <Alert
            type="error"
            showIcon
            title={failure}
            className="login-alert"
            style={{ marginBottom: 24 }}
            data-testid="login-error"
          />
        ) : null}
        {tab === 'account' ? (
          <>
            <Form.Item name="username" rules={rules.username}>
              <Input
                prefix={<UserOutlined />}
                placeholder={t('login.username.placeholder')}
                autoComplete="username"
                onBlur={(e) => checkTwoStep(e.target.value.trim())}
              />
            </Form.Item>
            <Form.Item name="password" rules={rules.password}>
              <Password
                prefix={<LockOutlined />}
                placeholder={t('login.password.placeholder')}
                autoComplete="current-password"
              />
            </Form.Item>
            {twoStep ? (
              <>
                <Alert
                  type="info"
                  showIcon
                  title={t('login.twoStep')}
                  style={{ marginBottom: 16 }}
                  data-testid="two-step"
                />
                {mobileField}
                {captchaRow}
              </>
            ) : null}
          </>
        ) : (
          <>
            {mobileField}
            {captchaRow}
          </>
        )}
        <div className="login-form-row" style={{ marginBottom: 24 }}>
          <Form.Item name="remember" valuePropName="checked" noStyle>
            <Checkbox>{t('login.remember')}</Checkbox>
          </Form.Item>
          <Link to="/user/recover">{t('login.forgot')}</Link>
        </div>
        <Form.Item>
          <Button
            type="primary"
            htmlType="submit"
            block
            loading={login.isPending}
            data-testid="login-submit"
          >
            {t('login.submit')}
          </Button>
        </Form.Item>
        <div className="login-form-row">
          {site.providers.length > 0 ? (
            <span className="login-providers">
              <span>{t('login.otherProviders')}</span>
              {site.providers.map((provider) => (
                <a key={provider} href={`/auth/oauth/${encodeURIComponent(provider)}`}>
                  {provider}
                </a>
              ))}
            </span>
          ) : (
            <span />
          )}
          <Link to="/user/register" data-testid="register-link">
            {t('login.signUp')}
          </Link>
        </div>
      </Form>
    </div>
  );
}
