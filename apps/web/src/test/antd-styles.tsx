import type { ReactNode } from 'react';
import { StyleProvider } from '@ant-design/cssinjs';

/**
 * antd's generated style sheets kept off the test document. jsdom computes an element's
 * style by matching it against every rule of every sheet in the document, and the queries
 * by role, `toBeVisible` and user-event ask for it many times per step: with antd's rules
 * in the document (2,300 of them on the firmware page) each call took about 8 ms, 43 % of
 * that file's time. What a test looks at — text, roles, states, inline styles, classes —
 * is the same without them; antd hides what is closed with inline styles or by removing it.
 */
const OFF_DOCUMENT = document.createElement('div');

export function AntdStylesOffDocument({ children }: { children: ReactNode }) {
  return <StyleProvider container={OFF_DOCUMENT}>{children}</StyleProvider>;
}
