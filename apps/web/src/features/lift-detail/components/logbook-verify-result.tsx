import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LogbookVerifyResult } from '../api/logbook-api.ts';

/**
 * What a verify found, in words: the chain intact with how many entries and the head to
 * note down, or the first broken entry, its seq and what is wrong with it.
 */
export function LogbookVerifyResultView({ result }: { result: LogbookVerifyResult }) {
  const { t } = useTranslation();
  if (result.ok) {
    return (
      <Alert
        type="success"
        showIcon
        className="logbook-verify"
        data-testid="logbook-verify-result"
        data-ok="true"
        title={
          result.checked === 0
            ? t('logbook.verify.okEmpty')
            : t('logbook.verify.ok', { checked: result.checked })
        }
        description={
          result.headHash ? (
            <span className="logbook-hash">
              {t('logbook.verify.head', { seq: result.headSeq, hash: result.headHash })}
            </span>
          ) : null
        }
      />
    );
  }
  const broken = result.broken;
  return (
    <Alert
      type="error"
      showIcon
      className="logbook-verify"
      data-testid="logbook-verify-result"
      data-ok="false"
      title={t('logbook.verify.broken', { seq: broken?.seq ?? result.checked + 1 })}
      description={
        <>
          {broken ? <div>{t(`logbook.problem.${broken.problem}`)}</div> : null}
          {result.checked > 0 ? (
            <div>{t('logbook.verify.checkedBefore', { checked: result.checked })}</div>
          ) : null}
        </>
      }
    />
  );
}
