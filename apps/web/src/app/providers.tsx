import { useEffect, type ReactNode } from 'react';
import { App, ConfigProvider, theme } from 'antd';
import { QueryClientProvider } from '@tanstack/react-query';
import { setFeedback } from '../lib/feedback.ts';
import { useLanguage } from '../lib/i18n/language.ts';
import { useLayoutSettings } from '../lib/layout-settings.ts';
import { queryClient } from '../lib/query-client.ts';

/** Hands antd's themed message / notification / modal to code outside React. */
function FeedbackBridge() {
  const api = App.useApp();
  useEffect(() => {
    setFeedback(api);
    return () => setFeedback(null);
  }, [api]);
  return null;
}

export function AppProviders({ children }: { children: ReactNode }) {
  const { antdLocale } = useLanguage();
  const settings = useLayoutSettings();

  useEffect(() => {
    document.documentElement.classList.toggle('color-weak', settings.colorWeak);
  }, [settings.colorWeak]);

  return (
    <ConfigProvider
      locale={antdLocale}
      theme={{
        algorithm: theme.defaultAlgorithm,
        token: { colorPrimary: settings.primaryColor, borderRadius: 6 },
      }}
    >
      <App notification={{ placement: 'topRight' }}>
        <FeedbackBridge />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </App>
    </ConfigProvider>
  );
}
