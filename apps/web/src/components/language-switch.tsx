import GlobalOutlined from '@ant-design/icons-svg/es/asn/GlobalOutlined';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '@liftlink/protocol';
import { changeLanguage, LANGUAGE_LABELS, useLanguage } from '../lib/i18n/language.ts';
import { LiteIcon } from './lite/lite-icon.tsx';

/**
 * The language selector of the sign-in pages: each language names itself, one click
 * switches. Plain buttons: the sign-in pages load no antd.
 */
export function LanguageSwitch() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  return (
    <div
      className="language-switch"
      role="group"
      aria-label={t('layout.language')}
      data-testid="language-switch"
    >
      <LiteIcon icon={GlobalOutlined} className="language-switch-icon" />
      {LANGUAGES.map((lng) => (
        <button
          key={lng}
          type="button"
          lang={lng}
          aria-pressed={lng === language}
          className={`language-switch-option${lng === language ? ' language-switch-active' : ''}`}
          onClick={() => void changeLanguage(lng)}
        >
          {LANGUAGE_LABELS[lng]}
        </button>
      ))}
    </div>
  );
}
