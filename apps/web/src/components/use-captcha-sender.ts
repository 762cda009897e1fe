import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SMS_RESEND_MS } from '@liftlink/protocol';
import { useFeedback } from '../lib/feedback.ts';
import { errorMessage } from '../lib/form-errors.ts';
import { http } from '../lib/http.ts';

/**
 * "Get code": asks the server to text a 6-digit code to the mobile number the form holds,
 * then counts down 60 s before it may be asked again. Returns the props of its button
 * (label, disabled while counting, loading while sending), for an antd or a lite button.
 */
export function useCaptchaSender(getMobile: () => Promise<string | null>) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const [secondsLeft, setSecondsLeft] = useState(0);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (secondsLeft <= 0) return;
    const timer = window.setTimeout(() => setSecondsLeft((s) => s - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [secondsLeft]);

  const send = async () => {
    const mobile = await getMobile();
    if (!mobile) return;
    setSending(true);
    try {
      await http.post('/account/sms', { mobile }, { quiet: true });
      setSecondsLeft(Math.round(SMS_RESEND_MS / 1000));
      message.success(t('captcha.sent'));
    } catch (error) {
      const text = errorMessage(error);
      if (text) message.error(text);
    } finally {
      setSending(false);
    }
  };

  return {
    disabled: secondsLeft > 0,
    loading: sending,
    onClick: () => void send(),
    'data-testid': 'get-captcha',
    children: secondsLeft > 0 ? t('captcha.countdown', { seconds: secondsLeft }) : t('captcha.get'),
  };
}
