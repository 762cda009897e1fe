import { App, Button, Drawer, List, Popconfirm, Space, Tag, Typography, Upload } from 'antd';
import { DeleteOutlined, DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { documentDownloadPath } from '@liftlink/protocol';
import { Access } from '../../../lib/access.tsx';
import { showError } from '../../../lib/form-errors.ts';
import {
  manufactureApi,
  manufactureKeys,
  uploadDocument,
  useDocuments,
} from '../api/manufacture-api.ts';

const size = (bytes: number) =>
  bytes >= 1_048_576
    ? `${(bytes / 1_048_576).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;

/** Manuals per device kind, the plugin package and uploaded documents. */
export function DocumentsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const documents = useDocuments(open);
  const reload = () => client.invalidateQueries({ queryKey: manufactureKeys.documents });

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={t('manufacture.docs.title')}
      width={520}
      data-testid="documents-drawer"
    >
      <Access check="document.import">
        <Upload
          showUploadList={false}
          customRequest={({ file, onSuccess, onError }) => {
            uploadDocument(file as File, 'other').then(
              (doc) => {
                onSuccess?.(doc);
                void message.success(t('manufacture.docs.uploaded'));
                void reload();
              },
              (error: unknown) => {
                onError?.(error as Error);
                showError(message, error);
              },
            );
          }}
        >
          <Button icon={<UploadOutlined />} style={{ marginBottom: 12 }}>
            {t('manufacture.docs.upload')}
          </Button>
        </Upload>
      </Access>
      <List
        loading={documents.isLoading}
        dataSource={documents.data?.list ?? []}
        renderItem={(doc) => (
          <List.Item
            actions={[
              <Button
                key="download"
                type="link"
                icon={<DownloadOutlined />}
                href={documentDownloadPath(doc.id, doc.name)}
                aria-label={t('manufacture.docs.download')}
              />,
              <Access key="delete" check="document.delete">
                <Popconfirm
                  title={t('common.confirmDelete')}
                  onConfirm={() =>
                    manufactureApi.deleteDocument(doc.id).then(
                      () => reload(),
                      (error: unknown) => showError(message, error),
                    )
                  }
                >
                  <Button
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('common.delete')}
                  />
                </Popconfirm>
              </Access>,
            ]}
          >
            <List.Item.Meta
              title={<Typography.Text ellipsis>{doc.name}</Typography.Text>}
              description={
                <Space size={4} wrap>
                  <Tag>{t(`manufacture.docs.kind.${doc.kind}`)}</Tag>
                  {doc.deviceKind ? (
                    <Tag color="blue">{t(`device.kind.${doc.deviceKind}`)}</Tag>
                  ) : null}
                  <span>{size(doc.size)}</span>
                </Space>
              }
            />
          </List.Item>
        )}
      />
    </Drawer>
  );
}
