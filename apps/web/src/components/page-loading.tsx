import { LiteSpin } from './lite/lite-spin.tsx';

/** Shown while a page's code loads: antd's large Spin drawn in CSS (no antd at start-up). */
export function PageLoading() {
  return (
    <div className="page-loading" role="status" aria-busy="true">
      <LiteSpin />
    </div>
  );
}
