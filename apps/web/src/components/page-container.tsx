import type { ReactNode } from 'react';
import { Typography } from 'antd';

/** Title row (with optional actions) above a page's content. */
export function PageContainer({
  title,
  extra,
  children,
}: {
  title: ReactNode;
  extra?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="page-container">
      <div className="page-container-head">
        <Typography.Title level={4} className="page-container-title">
          {title}
        </Typography.Title>
        {extra ? <div className="page-container-extra">{extra}</div> : null}
      </div>
      {children}
    </div>
  );
}
