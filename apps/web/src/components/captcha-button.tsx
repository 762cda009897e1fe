import type { ReactNode } from 'react';
import { Button, Form, type FormInstance } from 'antd';
import Input from 'antd/es/input/Input';
import type { Rule } from 'antd/es/form';
import { useCaptchaSender } from './use-captcha-sender.ts';

/** "Get code" with its 60 s countdown, for antd forms (register, account binding). */
export function CaptchaButton({
  getMobile,
  className,
}: {
  getMobile: () => Promise<string | null>;
  className?: string;
}) {
  return <Button className={className} {...useCaptchaSender(getMobile)} />;
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
