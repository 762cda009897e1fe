import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageContainer } from '../../../components/page-container.tsx';
import { useSession } from '../../../lib/session.ts';
import { useSiteInfo } from '../../../lib/site.ts';
import { InviteCodeForm } from './invite-code-form.tsx';

/**
 * Where a user awaiting an organization lands (docs/product.md, "Invite codes"): why they
 * see no lift, whom to ask, the service contact, and the invite code form.
 */
export default function JoinPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { info } = useSession();
  const site = useSiteInfo();
  const contact = site.serviceContact.trim();
  return (
    <PageContainer title={t('menu.account.join')}>
      <Card style={{ maxWidth: 720 }} data-testid="join-page">
        {info.organization ? (
          <Typography.Paragraph data-testid="join-member">
            {t('invite.join.member', { org: info.organization.name })}
          </Typography.Paragraph>
        ) : (
          <>
            <Typography.Paragraph>{t('invite.join.intro')}</Typography.Paragraph>
            <Typography.Paragraph type="secondary">{t('invite.join.assign')}</Typography.Paragraph>
            {contact ? (
              <Typography.Paragraph data-testid="join-contact">
                {t('invite.join.contact', { contact })}
              </Typography.Paragraph>
            ) : null}
            <InviteCodeForm onJoined={() => void navigate('/', { replace: true })} />
          </>
        )}
      </Card>
    </PageContainer>
  );
}
