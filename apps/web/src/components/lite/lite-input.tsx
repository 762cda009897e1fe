import { useState, type InputHTMLAttributes, type ReactNode } from 'react';
import EyeInvisibleOutlined from '@ant-design/icons-svg/es/asn/EyeInvisibleOutlined';
import EyeOutlined from '@ant-design/icons-svg/es/asn/EyeOutlined';
import { LiteIcon } from './lite-icon.tsx';

type NativeProps = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'onChange' | 'value' | 'type' | 'prefix' | 'id'
>;

/**
 * A large text field as antd's Form.Item + Input draw it on the sign-in page: prefix icon,
 * red border and the field's error below it. The placeholder is also the accessible name
 * (the page shows no separate labels, as before); the error is the field's description.
 */
export function LiteInput({
  id,
  value,
  onChange,
  prefix,
  error,
  password,
  showPasswordLabel,
  hidePasswordLabel,
  placeholder,
  ...rest
}: NativeProps & {
  id: string;
  value: string;
  onChange: (value: string) => void;
  prefix?: ReactNode;
  error?: string | null;
  /** A password field with antd's eye button to show or hide what was typed. */
  password?: boolean;
  showPasswordLabel?: string;
  hidePasswordLabel?: string;
}) {
  const [visible, setVisible] = useState(false);
  const errorId = `${id}-error`;
  return (
    <div className={`lite-field${error ? ' lite-field-has-error' : ''}`}>
      <span className="lite-input">
        {prefix ? <span className="lite-input-prefix">{prefix}</span> : null}
        <input
          {...rest}
          id={id}
          type={password && !visible ? 'password' : 'text'}
          value={value}
          placeholder={placeholder}
          aria-label={placeholder}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => onChange(e.target.value)}
        />
        {password ? (
          <button
            type="button"
            className="lite-input-suffix"
            aria-label={visible ? hidePasswordLabel : showPasswordLabel}
            aria-pressed={visible}
            onClick={() => setVisible((v) => !v)}
          >
            <LiteIcon icon={visible ? EyeOutlined : EyeInvisibleOutlined} />
          </button>
        ) : null}
      </span>
      {error ? (
        <div id={errorId} className="lite-field-error">
          {error}
        </div>
      ) : null}
    </div>
  );
}
