import type { App } from 'antd';

/**
 * antd's message / notification / modal instances that follow the ConfigProvider theme
 * and locale. `FeedbackBridge` (app providers) fills this in so that code outside React
 * (the HTTP client, the session) can show a notice.
 */
export type Feedback = ReturnType<typeof App.useApp>;

let current: Feedback | null = null;

export function setFeedback(next: Feedback | null): void {
  current = next;
}

export function feedback(): Feedback | null {
  return current;
}
