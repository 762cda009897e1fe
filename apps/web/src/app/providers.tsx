import { Component, Suspense, useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { feedbackWanted, subscribeFeedbackWanted } from '../lib/feedback.ts';
import { lazyPage } from '../lib/lazy.ts';
import { useLayoutSettings } from '../lib/layout-settings.ts';
import { queryClient } from '../lib/query-client.ts';

const FeedbackHost = lazyPage(() => import('./antd/feedback-host.tsx'));

/** Without its code the host shows nothing; the page itself keeps working. */
class WithoutFeedbackOnError extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

/** antd's message and notification, loaded the first time the app says something. */
function FeedbackMount() {
  const wanted = useSyncExternalStore(subscribeFeedbackWanted, feedbackWanted);
  if (!wanted) return null;
  return (
    <WithoutFeedbackOnError>
      <Suspense fallback={null}>
        <FeedbackHost />
      </Suspense>
    </WithoutFeedbackOnError>
  );
}

/**
 * The root providers. No antd here: the sign-in page is built without it, and the screens
 * that use antd wrap themselves in AntdScope (theme and locale).
 */
export function AppProviders({ children }: { children: ReactNode }) {
  const settings = useLayoutSettings();

  useEffect(() => {
    document.documentElement.classList.toggle('color-weak', settings.colorWeak);
  }, [settings.colorWeak]);
  useEffect(() => {
    // The sign-in page's own components take the primary colour from here.
    document.documentElement.style.setProperty('--app-primary', settings.primaryColor);
  }, [settings.primaryColor]);

  return (
    <QueryClientProvider client={queryClient}>
      <FeedbackMount />
      {children}
    </QueryClientProvider>
  );
}
