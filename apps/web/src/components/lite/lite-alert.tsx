import CloseCircleFilled from '@ant-design/icons-svg/es/asn/CloseCircleFilled';
import InfoCircleFilled from '@ant-design/icons-svg/es/asn/InfoCircleFilled';
import type { HTMLAttributes } from 'react';
import { LiteIcon } from './lite-icon.tsx';

/** antd's Alert (error or info, with its icon) in plain CSS. */
export function LiteAlert({
  type,
  title,
  className,
  ...rest
}: Omit<HTMLAttributes<HTMLDivElement>, 'title'> & { type: 'error' | 'info'; title: string }) {
  return (
    <div
      {...rest}
      role={type === 'error' ? 'alert' : 'status'}
      className={`lite-alert lite-alert-${type}${className ? ` ${className}` : ''}`}
    >
      <LiteIcon
        icon={type === 'error' ? CloseCircleFilled : InfoCircleFilled}
        className="lite-alert-icon"
      />
      <div className="lite-alert-title">{title}</div>
    </div>
  );
}
