import { useEffect } from 'react';
import { Modal } from 'antd';
import type { HookAPI } from 'antd/es/modal/useModal';

/** antd's modal hook and its holder, loaded with the shell's first confirmation. */
export default function ModalHost({ onReady }: { onReady: (api: HookAPI) => void }) {
  const [api, holder] = Modal.useModal();
  useEffect(() => onReady(api), [api, onReady]);
  return holder;
}
