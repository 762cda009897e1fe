import {
  Suspense,
  useCallback,
  useContext,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { message, notification } from 'antd';
import AppContext from 'antd/es/app/context';
import useAppStyle from 'antd/es/app/style';
import { ConfigContext } from 'antd/es/config-provider';
import type { HookAPI } from 'antd/es/modal/useModal';
import { lazyPage } from '../../lib/lazy.ts';

const ModalHost = lazyPage(() => import('./modal-host.tsx'));

type ModalKind = keyof HookAPI;
type Handle = ReturnType<HookAPI['confirm']>;
const KINDS: ModalKind[] = ['info', 'success', 'error', 'warning', 'confirm'];

/**
 * antd's modal API whose code (Modal, dialog, confirm) downloads with the first dialog
 * it opens, e.g. the logout confirmation; until then calls wait in a queue.
 */
function useLazyModal(): [HookAPI, ReactNode] {
  const [wanted, setWanted] = useState(false);
  const ready = useRef<HookAPI | null>(null);
  const queue = useRef<((api: HookAPI) => void)[]>([]);
  const onReady = useCallback((api: HookAPI) => {
    ready.current = api;
    for (const run of queue.current.splice(0)) run(api);
  }, []);

  const modal = useMemo(() => {
    const open =
      (kind: ModalKind) =>
      (...args: Parameters<HookAPI['confirm']>): Handle => {
        let handle: Handle | null = null;
        let destroyed = false;
        const result = new Promise<boolean>((resolve) => {
          const run = (api: HookAPI) => {
            if (destroyed) return resolve(false);
            handle = api[kind](...args);
            void handle.then(resolve, () => resolve(false));
          };
          if (ready.current) run(ready.current);
          else {
            queue.current.push(run);
            setWanted(true);
          }
        });
        return {
          destroy: () => {
            destroyed = true;
            handle?.destroy();
          },
          update: (config) => handle?.update(config),
          // `result` never rejects: a dialog that fails to load answers "not confirmed".
          then: (resolve) => result.then(resolve),
        };
      };
    return Object.fromEntries(KINDS.map((kind) => [kind, open(kind)])) as HookAPI;
  }, []);

  const holder = wanted ? (
    <Suspense fallback={null}>
      <ModalHost onReady={onReady} />
    </Suspense>
  ) : null;
  return [modal, holder];
}

/**
 * antd's `App` for the shell (the same context, root element and style), except that the
 * modal code is not part of the first download: `App.useApp().modal` loads it on first use.
 */
export function ShellApp({ children }: { children: ReactNode }) {
  const { getPrefixCls } = useContext(ConfigContext);
  const prefixCls = getPrefixCls('app');
  const [hashId, cssVarCls] = useAppStyle(prefixCls);
  const [messageApi, messageHolder] = message.useMessage();
  const [notificationApi, notificationHolder] = notification.useNotification({
    placement: 'topRight',
  });
  const [modalApi, modalHolder] = useLazyModal();
  const value = useMemo(
    () => ({ message: messageApi, notification: notificationApi, modal: modalApi }),
    [messageApi, notificationApi, modalApi],
  );
  return (
    <AppContext.Provider value={value}>
      <div className={[prefixCls, hashId, cssVarCls].filter(Boolean).join(' ')}>
        {modalHolder}
        {messageHolder}
        {notificationHolder}
        {children}
      </div>
    </AppContext.Provider>
  );
}
