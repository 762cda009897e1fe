import { Spin } from 'antd';

export function PageLoading() {
  return (
    <div className="page-loading" role="status" aria-busy="true">
      <Spin size="large" />
    </div>
  );
}
