import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ACTIVATION_VALID_MS } from '@liftlink/protocol';

/** A guess at the webmail of the address's domain for "view mailbox". */
export function mailboxUrl(email: string): string | null {
  const domain = email.split('@')[1]?.trim().toLowerCase();
  if (!domain || !/^[a-z0-9.-]+\.[a-z]{2,}$/.test(domain)) return null;
  if (domain === 'gmail.com') return 'https://mail.google.com/';
  return `https://mail.${domain}/`;
}

/** Spec section 2: the activation mail was sent and is valid 24 hours; back to home, view mailbox. */
export default function RegisterResultPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const email = params.get('email') ?? '';
  const mailbox = mailboxUrl(email);
  return (
    <div className="user-wide">
      <Result
        status="success"
        title={t('register.result.title', { email })}
        subTitle={t('register.result.text', { hours: ACTIVATION_VALID_MS / 3_600_000 })}
        extra={
          <>
            {mailbox ? (
              <Button type="primary" href={mailbox} target="_blank" rel="noreferrer">
                {t('register.result.mailbox')}
              </Button>
            ) : null}
            <Link to="/user/login">
              <Button>{t('register.result.home')}</Button>
            </Link>
          </>
        }
        data-testid="register-result"
      />
    </div>
  );
}
