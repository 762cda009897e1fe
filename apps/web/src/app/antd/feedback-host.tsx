import { useEffect, useMemo } from 'react';
import { message, notification } from 'antd';
import { setFeedback, type Feedback } from '../../lib/feedback.ts';
import { AntdScope } from './antd-scope.tsx';

function Holders() {
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
    <>
      {messageHolder}
      {notificationHolder}
    </>
  );
}

/** The app-wide message and notification (lib/feedback.ts), mounted on first use. */
export default function FeedbackHost() {
  return (
    <AntdScope>
      <Holders />
    </AntdScope>
  );
}
