import { useRef, useState } from 'react';
import { App, Button, Image } from 'antd';
import { CameraOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { MAX_INCIDENT_PHOTO_BYTES, sniffPhotoType } from '@liftlink/protocol';
import { LoadError } from '../../../components/charts/data-state.tsx';
import { showError } from '../../../lib/form-errors.ts';
import {
  incidentPhotoUrl,
  useAddIncidentPhoto,
  useIncidentPhotos,
} from '../api/incident-photos-api.ts';
import './incident-photos.css';

const TIME = 'YYYY-MM-DD HH:mm';

/** The first bytes of a file: its type is told by them, as the server tells it. */
async function headOf(file: Blob): Promise<Uint8Array> {
  const part = file.slice(0, 16);
  if (typeof part.arrayBuffer === 'function') return new Uint8Array(await part.arrayBuffer());
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsArrayBuffer(part);
  });
}

/**
 * The incident's photos: thumbnails (who and when under each) that open full size, and, for
 * those who may edit, a big "Add photo" button that opens the phone's back camera (or the
 * file picker on a desktop). A file that is no JPEG, PNG or WebP, or is over 10 MB, is
 * refused here before it is sent over a slow network; the server checks again.
 */
export function IncidentPhotos({ incidentId, canAdd }: { incidentId: number; canAdd: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const photos = useIncidentPhotos(incidentId);
  const add = useAddIncidentPhoto(incidentId);
  const input = useRef<HTMLInputElement>(null);
  const [sending, setSending] = useState(false);

  const send = async (files: File[]) => {
    setSending(true);
    try {
      for (const file of files) {
        if (file.size > MAX_INCIDENT_PHOTO_BYTES) {
          void message.error(t('errors.incident.photoTooLarge'));
          continue;
        }
        if (!sniffPhotoType(await headOf(file))) {
          void message.error(t('errors.incident.photoType'));
          continue;
        }
        try {
          await add.mutateAsync(file);
          void message.success(t('incident.photos.added'));
        } catch (error) {
          showError(message, error);
        }
      }
    } finally {
      setSending(false);
    }
  };

  const list = photos.data?.list ?? [];
  return (
    <div className="incident-photos" data-testid="incident-photos">
      {photos.isError ? (
        <LoadError error={photos.error} onRetry={() => void photos.refetch()} />
      ) : list.length === 0 && !photos.isPending ? (
        <div className="lift-muted incident-photos-empty">{t('incident.photos.empty')}</div>
      ) : (
        <Image.PreviewGroup>
          <ul className="incident-photo-grid" data-testid="incident-photo-list">
            {list.map((photo) => {
              const when = dayjs(photo.addedAt).format(TIME);
              return (
                <li key={photo.id} className="incident-photo" data-testid="incident-photo">
                  <Image
                    src={incidentPhotoUrl(photo.id)}
                    alt={t('incident.photos.alt', { who: photo.addedByName, time: when })}
                    className="incident-photo-image"
                    loading="lazy"
                  />
                  <div className="incident-photo-caption lift-muted">
                    {t('incident.photos.by', { who: photo.addedByName, time: when })}
                  </div>
                </li>
              );
            })}
          </ul>
        </Image.PreviewGroup>
      )}
      {canAdd ? (
        <div className="incident-photo-add">
          <input
            ref={input}
            type="file"
            accept="image/*"
            capture="environment"
            multiple
            hidden
            data-testid="incident-photo-input"
            onChange={(event) => {
              const files = Array.from(event.target.files ?? []);
              // The same photo may be chosen again after a refusal.
              event.target.value = '';
              if (files.length) void send(files);
            }}
          />
          <Button
            size="large"
            icon={<CameraOutlined />}
            loading={sending}
            onClick={() => input.current?.click()}
            className="incident-photo-button"
            data-testid="incident-photo-add"
          >
            {sending ? t('incident.photos.uploading') : t('incident.photos.add')}
          </Button>
          <div className="lift-muted incident-photo-hint">{t('incident.photos.hint')}</div>
        </div>
      ) : null}
    </div>
  );
}
