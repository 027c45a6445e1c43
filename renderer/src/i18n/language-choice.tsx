import { useTranslations } from 'use-intl';
import { LANGUAGES } from './languages.js';
import { useLanguage } from './language-provider.js';

/** The header's language choice: each language named in itself, remembered in this browser. */
export function LanguageChoice() {
  const t = useTranslations('header');
  const { language, choose } = useLanguage();
  return (
    <select className="language-choice" aria-label={t('language')} title={t('languageTitle')} value={language.code} onChange={(event) => choose(event.target.value)} data-testid="language-choice">
      {LANGUAGES.map(({ code, name }) => (
        <option key={code} value={code} lang={code}>
          {name}
        </option>
      ))}
    </select>
  );
}
