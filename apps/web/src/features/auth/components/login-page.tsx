import { useEffect, useRef, useState, type FormEvent } from 'react';
import LockOutlined from '@ant-design/icons-svg/es/asn/LockOutlined';
import MobileOutlined from '@ant-design/icons-svg/es/asn/MobileOutlined';
import SafetyOutlined from '@ant-design/icons-svg/es/asn/SafetyOutlined';
import UserOutlined from '@ant-design/icons-svg/es/asn/UserOutlined';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import type { LoginRequest } from '@liftlink/protocol';
import { LiteAlert } from '../../../components/lite/lite-alert.tsx';
import { LiteButton } from '../../../components/lite/lite-button.tsx';
import { LiteCheckbox } from '../../../components/lite/lite-checkbox.tsx';
import { LiteIcon } from '../../../components/lite/lite-icon.tsx';
import { LiteInput } from '../../../components/lite/lite-input.tsx';
import { useCaptchaSender } from '../../../components/use-captcha-sender.ts';
import { errorMessage } from '../../../lib/form-errors.ts';
import { ApiError } from '../../../lib/http.ts';
import { tx } from '../../../lib/i18n/i18n.ts';
import { expectWelcome, FROM_SIGN_IN, safeRedirect } from '../../../lib/session.ts';
import { useSiteInfo } from '../../../lib/site.ts';
import { preloadPage, preloadShell } from '../../../app/routing/preload.ts';
import { hasToken, setToken } from '../../../lib/token.ts';
import { authApi } from '../api/auth-api.ts';
import { LOGIN_RULES, type LoginField } from '../model/login-rules.ts';
import { LoginTabs } from './login-tabs.tsx';

type LoginTab = 'account' | 'mobile';

/** The text of a `?ssoError=` code (a refused sign-in with another provider); unknown codes get the general one. */
function ssoErrorKey(code: string | null): string | null {
  if (code === null) return null;
  const key = `login.sso.${code}`;
  return /^[a-zA-Z]{1,40}$/.test(code) && code !== 'signingIn' && tx(key) !== key
    ? key
    : 'login.sso.failed';
}

const EMPTY: Record<LoginField, string> = { username: '', password: '', mobile: '', captcha: '' };

/**
 * Sign-in (spec sections 2, 8): account and password, or mobile number and texted code.
 * Built from the small components in components/lite (no antd, no zod) so the page stays
 * within its JavaScript budget; it looks and behaves as the antd form did: each field is
 * checked as it changes and all of them on submit, with the protocol's rules and texts.
 */
export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [searchParams] = useSearchParams();
  const site = useSiteInfo();
  const [tab, setTab] = useState<LoginTab>('account');
  const [values, setValues] = useState(EMPTY);
  const [remember, setRemember] = useState(true);
  // The i18n key of each field's problem: the text follows a language switch.
  const [errors, setErrors] = useState<Partial<Record<LoginField, string | null>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  // Accounts with two-step sign-in also send a texted code with the password.
  const [twoStep, setTwoStep] = useState(false);
  const login = useMutation({ mutationFn: authApi.login });
  // Back from another provider (docs/operations.md section 14): `?sso=` takes over the
  // session it opened, `?ssoError=` says why there is none.
  const ssoCode = searchParams.get('sso');
  const [handoff, setHandoff] = useState<'none' | 'pending' | 'done' | 'failed'>(
    ssoCode ? 'pending' : 'none',
  );
  const handoffStarted = useRef(false);
  useEffect(() => {
    if (!ssoCode || handoffStarted.current) return;
    handoffStarted.current = true;
    authApi.oidcSession(ssoCode).then(
      async (result) => {
        setToken(result.token, result.expiresAt, result.remember);
        queryClient.removeQueries({ queryKey: ['auth'] });
        setHandoff('done');
        expectWelcome();
        await navigate(safeRedirect(searchParams.get('redirect')), {
          replace: true,
          state: FROM_SIGN_IN,
        });
      },
      () => setHandoff('failed'),
    );
  }, [ssoCode, searchParams, navigate, queryClient]);
  const ssoFailure =
    handoff === 'failed' ? 'login.sso.failed' : ssoErrorKey(searchParams.get('ssoError'));

  const check = (fields: LoginField[]): boolean => {
    const found = Object.fromEntries(fields.map((f) => [f, LOGIN_RULES[f](values[f])]));
    setErrors((prev) => ({ ...prev, ...found }));
    return fields.every((f) => found[f] === null);
  };
  const captcha = useCaptchaSender(async () => (check(['mobile']) ? values.mobile : null));

  // Spec section 2: a signed-in user opening the login page lands on their first page (the
  // workplace when they may see it).
  if (hasToken() && !login.isSuccess && handoff !== 'done') return <Navigate to="/" replace />;

  const change = (field: LoginField) => (value: string) => {
    setValues((prev) => ({ ...prev, [field]: value }));
    setErrors((prev) => ({ ...prev, [field]: LOGIN_RULES[field](value) }));
  };

  const submit = async () => {
    const fields: LoginField[] =
      tab === 'mobile'
        ? ['mobile', 'captcha']
        : twoStep
          ? ['username', 'password', 'mobile', 'captcha']
          : ['username', 'password'];
    if (!check(fields)) return;
    setFailure(null);
    // The shell's and the landing page's code download while the sign-in call is on its way.
    preloadShell();
    preloadPage(safeRedirect(searchParams.get('redirect')));
    const body: LoginRequest =
      tab === 'account'
        ? {
            type: 'account',
            username: values.username,
            password: values.password,
            ...(twoStep && values.captcha ? { captcha: values.captcha } : {}),
            remember,
          }
        : { type: 'mobile', mobile: values.mobile, captcha: values.captcha, remember };
    try {
      const result = await login.mutateAsync(body);
      setToken(result.token, result.expiresAt, remember);
      queryClient.removeQueries({ queryKey: ['auth'] });
      // Shown over the shell: the message host loads with it (lib/feedback.ts).
      expectWelcome();
      await navigate(safeRedirect(searchParams.get('redirect')), {
        replace: true,
        state: FROM_SIGN_IN,
      });
    } catch (error) {
      if (
        error instanceof ApiError &&
        (error.code === 'auth.frozen' || error.code === 'auth.pending')
      ) {
        const account = tab === 'account' ? values.username : values.mobile;
        await navigate(
          `/result/fail?reason=${error.code === 'auth.frozen' ? 'frozen' : 'pending'}&account=${encodeURIComponent(account)}`,
        );
        return;
      }
      if (
        error instanceof ApiError &&
        error.code === 'auth.badCaptcha' &&
        (error.result as { stepCode?: unknown } | null)?.stepCode === true &&
        !twoStep
      ) {
        setTwoStep(true);
        return;
      }
      setFailure(errorMessage(error));
    }
  };

  const checkTwoStep = (username: string) => {
    if (!username) return;
    void authApi.twoStep(username).then(
      (result) => setTwoStep(result.stepCode === true),
      () => undefined,
    );
  };

  const field = (name: LoginField) => ({
    id: name,
    value: values[name],
    onChange: change(name),
    error: errors[name] ? tx(errors[name]) : null,
  });
  const mobileRows = (
    <>
      <LiteInput
        {...field('mobile')}
        prefix={<LiteIcon icon={MobileOutlined} />}
        placeholder={t('login.mobile.placeholder')}
        autoComplete="tel"
        inputMode="tel"
      />
      <div className="captcha-row">
        <LiteInput
          {...field('captcha')}
          prefix={<LiteIcon icon={SafetyOutlined} />}
          placeholder={t('login.captcha.placeholder')}
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={6}
        />
        <LiteButton {...captcha} />
      </div>
    </>
  );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit();
  };

  return (
    <div className="login-page">
      <form noValidate onSubmit={onSubmit} data-testid="login-form">
        <LoginTabs<LoginTab>
          active={tab}
          onChange={(key) => {
            setTab(key);
            setErrors({});
            setFailure(null);
          }}
          items={[
            { key: 'account', label: t('login.tab.account') },
            { key: 'mobile', label: t('login.tab.mobile') },
          ]}
        />
        <div role="tabpanel" id="login-tabpanel" aria-labelledby={`login-tab-${tab}`}>
          {handoff === 'pending' ? (
            <LiteAlert
              type="info"
              title={t('login.sso.signingIn')}
              className="login-alert"
              data-testid="sso-pending"
            />
          ) : null}
          {ssoFailure && !failure ? (
            <LiteAlert
              type="error"
              title={tx(ssoFailure)}
              className="login-alert"
              data-testid="login-error"
            />
          ) : null}
          {failure ? (
            <LiteAlert
              type="error"
              title={failure}
              className="login-alert"
              data-testid="login-error"
            />
          ) : null}
          {tab === 'account' ? (
            <>
              <LiteInput
                {...field('username')}
                prefix={<LiteIcon icon={UserOutlined} />}
                placeholder={t('login.username.placeholder')}
                autoComplete="username"
                onBlur={(e) => checkTwoStep(e.target.value.trim())}
              />
              <LiteInput
                {...field('password')}
                password
                showPasswordLabel={t('login.password.show')}
                hidePasswordLabel={t('login.password.hide')}
                prefix={<LiteIcon icon={LockOutlined} />}
                placeholder={t('login.password.placeholder')}
                autoComplete="current-password"
              />
              {twoStep ? (
                <>
                  <LiteAlert
                    type="info"
                    title={t('login.twoStep')}
                    className="login-two-step"
                    data-testid="two-step"
                  />
                  {mobileRows}
                </>
              ) : null}
            </>
          ) : (
            mobileRows
          )}
        </div>
        <div className="login-form-row login-remember-row">
          <LiteCheckbox checked={remember} onChange={setRemember}>
            {t('login.remember')}
          </LiteCheckbox>
          <Link to="/user/recover" className="lite-link">
            {t('login.forgot')}
          </Link>
        </div>
        <LiteButton
          type="submit"
          primary
          block
          loading={login.isPending}
          className="login-submit"
          data-testid="login-submit"
        >
          {t('login.submit')}
        </LiteButton>
        {site.providers.length > 0 ? (
          <div
            className="login-providers"
            role="group"
            aria-label={t('login.otherProviders')}
            data-testid="login-providers"
            style={{ display: 'flex', flexDirection: 'column', gap: 8, marginTop: 12 }}
          >
            {site.providers.map((provider) => (
              // A page of the server, not of the client: it sends the browser on to the provider.
              <a
                key={provider.id}
                className="lite-btn lite-btn-large lite-btn-default lite-btn-block"
                href={`/auth/oidc/${encodeURIComponent(provider.id)}/start?${new URLSearchParams({ redirect: safeRedirect(searchParams.get('redirect')), remember: remember ? '1' : '0' }).toString()}`}
                data-testid={`login-provider-${provider.id}`}
                style={{ textDecoration: 'none' }}
              >
                <span>{t('login.provider', { label: provider.label })}</span>
              </a>
            ))}
          </div>
        ) : null}
        <div className="login-form-row">
          <span />
          <Link to="/user/register" className="lite-link" data-testid="register-link">
            {t('login.signUp')}
          </Link>
        </div>
      </form>
    </div>
  );
}
