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
  const contact = lift.data?.serviceContact;
  const kind = lift.data
    ? hasKey(`device.kind.${lift.data.kind}`)
      ? tx(`device.kind.${lift.data.kind}`)
      : lift.data.kind
    : '';

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
          {lift.data.alias ? (
            <Descriptions.Item label={t('qrcode.alias')}>{lift.data.alias}</Descriptions.Item>
          ) : null}
          <Descriptions.Item label={t('qrcode.contact')}>
            {contact?.name ? <div>{contact.name}</div> : null}
            {contact?.phone ? (
              <a href={`tel:${contact.phone}`}>
                <PhoneOutlined /> {contact.phone}
              </a>
            ) : null}
            {contact?.email ? (
              <div>
                <a href={`mailto:${contact.email}`}>{contact.email}</a>
              </div>
            ) : null}
            {!contact?.name && !contact?.phone && !contact?.email ? t('common.none') : null}
          </Descriptions.Item>
        </Descriptions>
        <Link to={`/lift/${encodeURIComponent(lift.data.id)}`}>
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
