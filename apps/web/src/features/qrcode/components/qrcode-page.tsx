import { Button, Card, Descriptions, Result, Spin } from 'antd';
import { LoginOutlined, PhoneOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../../../lib/form-errors.ts';
import { hasKey, tx } from '../../../lib/i18n/i18n.ts';
import { useQrcodeLift } from '../api/qrcode-api.ts';

/** The page behind the code on a lift: its kind, number and service contact, and a sign-in link to it. */
export default function QrcodePage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const deviceNo = (params.get('deviceNo') ?? '').trim();
  const lift = useQrcodeLift(deviceNo);
  const kind = lift.data
    ? hasKey(`device.kind.${lift.data.kind}`)
      ? tx(`device.kind.${lift.data.kind}`)
      : lift.data.kind
    : '';
  const contact = lift.data?.serviceContact.trim() ?? '';
  // A contact that is just a phone number can be called with one tap.
  const phone = /^\+?[0-9 ()-]{5,20}$/.test(contact) ? contact.replace(/[^+0-9]/g, '') : null;

  let body;
  if (!deviceNo) body = <Result status="warning" title={t('qrcode.noDevice')} />;
  else if (lift.isPending) body = <Spin size="large" className="page-loading" />;
  else if (lift.isError)
    body = <Result status="404" title={t('qrcode.notFound')} subTitle={errorMessage(lift.error)} />;
  else
    body = (
      <>
        <Descriptions column={1} bordered size="middle" data-testid="qrcode-lift">
          <Descriptions.Item label={t('qrcode.kind')}>{kind}</Descriptions.Item>
          <Descriptions.Item label={t('qrcode.deviceNo')}>{lift.data.deviceNo}</Descriptions.Item>
          <Descriptions.Item label={t('qrcode.floors')}>{lift.data.floors}</Descriptions.Item>
          {lift.data.maker ? (
            <Descriptions.Item label={t('qrcode.maker')}>{lift.data.maker}</Descriptions.Item>
          ) : null}
          <Descriptions.Item label={t('qrcode.contact')}>
            {phone ? (
              <a href={`tel:${phone}`}>
                <PhoneOutlined /> {contact}
              </a>
            ) : (
              contact || t('common.none')
            )}
          </Descriptions.Item>
        </Descriptions>
        <Link to={`/lift/${encodeURIComponent(lift.data.liftId)}`}>
          <Button
            type="primary"
            block
            size="large"
            icon={<LoginOutlined />}
            style={{ marginTop: 24 }}
            data-testid="qrcode-signin"
          >
            {t('qrcode.signIn')}
          </Button>
        </Link>
      </>
    );

  return (
    <Card title={t('qrcode.title')} className="user-wide qrcode-card">
      {body}
    </Card>
  );
}
