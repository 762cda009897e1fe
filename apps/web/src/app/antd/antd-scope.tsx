import { use, type ReactNode } from 'react';
import { ConfigProvider } from 'antd';
import { antdLocale, antdLocaleReady } from '../../lib/i18n/antd-locale.ts';
import { useLanguage } from '../../lib/i18n/language.ts';
import { useLayoutSettings } from '../../lib/layout-settings.ts';

/**
 * antd's theme (the primary colour setting) and locale for the screens built with antd:
 * the shell after sign-in, the other public pages and the message / notification host.
 * The sign-in page has its own small components, so antd is not part of its download.
 */
export function AntdScope({ children }: { children: ReactNode }) {
  use(antdLocaleReady);
  useLanguage();
  const settings = useLayoutSettings();
  return (
    <ConfigProvider
      locale={antdLocale()}
      theme={{ token: { colorPrimary: settings.primaryColor, borderRadius: 6 } }}
    >
      {children}
    </ConfigProvider>
  );
}
