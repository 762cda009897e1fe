import type { ReactNode } from 'react';
import { Alert, Button, Modal, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

interface OrgSettingsModalProps {
  open: boolean;
  title: string;
  /** `<testId>` on the modal, `<testId>-save` on its save button, `<testId>-hint` on the hint (without `-modal`). */
  testId: string;
  hint: string;
  /** Save and Cancel with the edit right; only OK without it (read-only). */
  editable: boolean;
  /** The setting has loaded (saving is possible, the skeleton gives way to the form). */
  loaded: boolean;
  /** The setting did not load; `loadError` says why when it can. */
  failed: boolean;
  loadError: string | null;
  saving: boolean;
  skeletonRows: number;
  onSave: () => void;
  onClose: () => void;
  children: ReactNode;
}

/** The frame of an organization's setting (approval classes, on call): hint, load state, save or OK. */
export function OrgSettingsModal(props: OrgSettingsModalProps) {
  const { t } = useTranslation();
  const { editable, onClose } = props;
  return (
    <Modal
      open={props.open}
      title={props.title}
      onCancel={onClose}
      forceRender
      data-testid={`${props.testId}-modal`}
      footer={
        editable
          ? [
              <Button key="cancel" onClick={onClose}>
                {t('common.cancel')}
              </Button>,
              <Button
                key="save"
                type="primary"
                data-testid={`${props.testId}-save`}
                disabled={!props.loaded}
                loading={props.saving}
                onClick={props.onSave}
              >
                {t('common.save')}
              </Button>,
            ]
          : [
              <Button key="close" onClick={onClose}>
                {t('common.ok')}
              </Button>,
            ]
      }
    >
      <Typography.Paragraph type="secondary" data-testid={`${props.testId}-hint`}>
        {props.hint}
      </Typography.Paragraph>
      {props.loadError ? <Alert type="error" showIcon title={props.loadError} /> : null}
      {!props.loaded && !props.failed ? (
        <Skeleton active paragraph={{ rows: props.skeletonRows }} />
      ) : null}
      {props.children}
    </Modal>
  );
}
