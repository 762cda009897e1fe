import type { ButtonHTMLAttributes } from 'react';
import { LiteIcon } from './lite-icon.tsx';
import LoadingOutlined from '@ant-design/icons-svg/es/asn/LoadingOutlined';

/** antd spaces out a label of two Chinese characters ("登 录"); so does this button. */
const TWO_CHINESE_CHARS = /^[\u4E00-\u9FA5]{2}$/;

/** antd's large Button (default or primary) in plain CSS, with its loading spinner. */
export function LiteButton({
  primary,
  size = 'large',
  block,
  loading,
  className,
  children,
  disabled,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & {
  primary?: boolean;
  /** antd's large (40 px, the sign-in form) or middle (32 px) size. */
  size?: 'large' | 'middle';
  block?: boolean;
  loading?: boolean;
}) {
  const classes = [
    'lite-btn',
    `lite-btn-${size}`,
    primary ? 'lite-btn-primary' : 'lite-btn-default',
  ];
  if (block) classes.push('lite-btn-block');
  if (loading) classes.push('lite-btn-loading');
  if (className) classes.push(className);
  return (
    <button
      type="button"
      {...rest}
      className={classes.join(' ')}
      disabled={disabled}
      aria-busy={loading || undefined}
    >
      {loading ? <LiteIcon icon={LoadingOutlined} className="lite-btn-spinner" /> : null}
      <span>
        {typeof children === 'string' && TWO_CHINESE_CHARS.test(children)
          ? children.split('').join(' ')
          : children}
      </span>
    </button>
  );
}
