import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { PageLoading } from '../../components/page-loading.tsx';
import { AntdScope } from './antd-scope.tsx';

/** A layout route for the public pages built with antd (register, recover, QR code, exceptions). */
export default function AntdOutlet() {
  return (
    <Suspense fallback={<PageLoading />}>
      <AntdScope>
        <Outlet />
      </AntdScope>
    </Suspense>
  );
}
