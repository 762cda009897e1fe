import { useEffect, useState, type ReactNode } from 'react';
import { Button, Form, type FormInstance } from 'antd';
import Input from 'antd/es/input/Input';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../lib/feedback.ts';
import { SMS_RESEND_MS } from '@liftlink/protocol';
import { http } from '../lib/http.ts';
import { errorMessage } from '../lib/form-errors.ts';

/**
 * "Get code": asks the server to text a 6-digit code to the mobile number the form holds,
 * then counts down 60 s before it may be asked again.
 */
export function CaptchaButton({
  getMobile,
  className,
}: {
  getMobile: () => Promise<string | null>;
  className?: string;
}) {
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
      void message.success(t('captcha.sent'));
    } catch (error) {
      const text = errorMessage(error);
      if (text) void message.error(text);
    } finally {
      setSending(false);
    }
  };

  return (
    <Button
      className={className}
      disabled={secondsLeft > 0}
      loading={sending}
      onClick={() => void send()}
      data-testid="get-captcha"
    >
      {secondsLeft > 0 ? t('captcha.countdown', { seconds: secondsLeft }) : t('captcha.get')}
    </Button>
  );
}

/** The "code + get code" row of a form that also holds a `mobile` field. */
export function CaptchaField({
  form,
  rules,
  placeholder,
  prefix,
}: {
  form: FormInstance;
  rules: Rule[];
  placeholder: string;
  prefix?: ReactNode;
}) {
  return (
    <div className="captcha-row">
      <Form.Item name="captcha" rules={rules}>
        <Input
          prefix={prefix}
          placeholder={placeholder}
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={6}
        />
      </Form.Item>
      <CaptchaButton
        getMobile={() =>
          form.validateFields(['mobile']).then(
            (values: { mobile?: string }) => values.mobile ?? null,
            () => null,
          )
        }
      />
    </div>
  );
}
