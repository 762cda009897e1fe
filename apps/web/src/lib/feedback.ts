import { createContext, useContext } from 'react';
import type { message, notification } from 'antd';
import { onceWithin } from './once-within.ts';

/**
 * antd's message and notification, themed like the rest of the app. Code outside React
 * (the HTTP client) reaches them through `feedback()`, components through `useFeedback()`.
 *
 * The sign-in page carries no antd, so the instances live in a host that the root mounts
 * the first time something is said (FeedbackHost, its own chunk): what is said before it
 * is ready waits in a queue. The welcome after sign-in is said on the login page and shown
 * over the shell, which loads antd anyway.
 */
export interface Feedback {
  message: ReturnType<typeof message.useMessage>[0];
  notification: ReturnType<typeof notification.useNotification>[0];
}

type MessageArgs = Parameters<Feedback['message']['success']>;
type NotificationArgs = Parameters<Feedback['notification']['success']>;

/** The calls this app makes; each waits for the host when it is not there yet. */
export interface FeedbackApi {
  message: Record<'success' | 'error' | 'warning' | 'info', (...args: MessageArgs) => void>;
  notification: Record<
    'success' | 'error' | 'warning' | 'info',
    (...args: NotificationArgs) => void
  >;
}

let host: Feedback | null = null;
const queue: ((api: Feedback) => void)[] = [];
let wanted = false;
const listeners = new Set<() => void>();

function run(call: (api: Feedback) => void): void {
  if (host) {
    call(host);
    return;
  }
  queue.push(call);
  if (!wanted) {
    wanted = true;
    for (const listener of listeners) listener();
  }
}

const kinds = ['success', 'error', 'warning', 'info'] as const;
const facade: FeedbackApi = {
  message: Object.fromEntries(
    kinds.map((kind) => [
      kind,
      (...args: MessageArgs) => run((api) => void api.message[kind](...args)),
    ]),
  ) as FeedbackApi['message'],
  notification: Object.fromEntries(
    kinds.map((kind) => [
      kind,
      (...args: NotificationArgs) => run((api) => api.notification[kind](...args)),
    ]),
  ) as FeedbackApi['notification'],
};

/** Called by the host when its instances are ready (and with null when it goes). */
export function setFeedback(next: Feedback | null): void {
  host = next;
  if (!next) return;
  for (const call of queue.splice(0)) call(next);
  for (const waiter of visibleWaiters.splice(0)) waiter();
}

const visibleWaiters: (() => void)[] = [];

/**
 * Runs `then` once what has been said can be seen: at once when the host is there, else
 * when it arrives (its chunk may take seconds on a slow device), or after `atMostMs`
 * should it never come. Whatever must wait for a notice to be read starts here.
 */
export function whenFeedbackVisible(then: () => void, atMostMs: number): void {
  if (host) {
    then();
    return;
  }
  visibleWaiters.push(onceWithin(atMostMs, then));
}

export function feedback(): FeedbackApi {
  return facade;
}

/** Whether the root should mount the host (something was said, or is about to be). */
export function feedbackWanted(): boolean {
  return wanted;
}

export function subscribeFeedbackWanted(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tests hand in antd's App instances directly. */
export const FeedbackContext = createContext<FeedbackApi | null>(null);

export function useFeedback(): FeedbackApi {
  return useContext(FeedbackContext) ?? facade;
}
