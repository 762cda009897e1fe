import { useEffect, useMemo, type ReactNode } from 'react';
import { ConfigProvider, message, notification } from 'antd';
import { QueryClientProvider } from '@tanstack/react-query';
import { FeedbackContext, setFeedback, type Feedback } from '../lib/feedback.ts';
import { useLanguage } from '../lib/i18n/language.ts';
import { useLayoutSettings } from '../lib/layout-settings.ts';
import { queryClient } from '../lib/query-client.ts';

/** Themed message and notification for the whole app, also handed to code outside React. */
function FeedbackProvider({ children }: { children: ReactNode }) {
  const [messageApi, messageHolder] = message.useMessage();
  const [notificationApi, notificationHolder] = notification.useNotification({
    placement: 'topRight',
  });
  const value = useMemo<Feedback>(
    () => ({ message: messageApi, notification: notificationApi }),
    [messageApi, notificationApi],
  );
  useEffect(() => {
    setFeedback(value);
    return () => setFeedback(null);
  }, [value]);
  return (
    <FeedbackContext.Provider value={value}>
      {messageHolder}
      {notificationHolder}
      {children}
    </FeedbackContext.Provider>
  );
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
      theme={{ token: { colorPrimary: settings.primaryColor, borderRadius: 6 } }}
    >
      <FeedbackProvider>
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </FeedbackProvider>
    </ConfigProvider>
  );
}
