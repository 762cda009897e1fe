import { createContext, useContext } from 'react';
import type { message, notification } from 'antd';

/**
 * antd's message and notification instances that follow the ConfigProvider theme and
 * locale, made by the root providers. Code outside React (the HTTP client) reaches them
 * through `feedback()`, components through `useFeedback()`. (Dialogs come from antd's
 * `App` inside the main layout, so the sign-in pages do not download the modal code.)
 */
export interface Feedback {
  message: ReturnType<typeof message.useMessage>[0];
  notification: ReturnType<typeof notification.useNotification>[0];
}

let current: Feedback | null = null;

export function setFeedback(next: Feedback | null): void {
  current = next;
}

export function feedback(): Feedback | null {
  return current;
}

export const FeedbackContext = createContext<Feedback | null>(null);

export function useFeedback(): Feedback {
  const value = useContext(FeedbackContext);
  if (!value) throw new Error('useFeedback outside AppProviders');
  return value;
}
