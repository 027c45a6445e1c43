import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { IntlProvider } from 'use-intl';
import { LANGUAGES, type Language } from './languages.js';
import { applyLanguage, initialLanguage, localeFor } from './language.js';

interface LanguageChoice {
  language: Language;
  choose: (code: string) => void;
}

const LanguageContext = createContext<LanguageChoice | null>(null);

function startLanguage(): Language {
  const language = initialLanguage();
  applyLanguage(language);
  return language;
}

/** The catalog of the language in use for every component below; the header changes it. */
export function LanguageProvider({ children }: { children: ReactNode }) {
  const [language, setLanguage] = useState(startLanguage);
  const choose = useCallback((code: string) => {
    const next = LANGUAGES.find((candidate) => candidate.code === code);
    if (!next) return;
    // Before the render: formatNumber and the text() of helpers read it while rendering.
    applyLanguage(next, true);
    setLanguage(next);
  }, []);
  const value = useMemo(() => ({ language, choose }), [language, choose]);
  return (
    <LanguageContext.Provider value={value}>
      <IntlProvider locale={localeFor(language)} messages={language.messages} onError={(error) => console.error(error.message)}>
        {children}
      </IntlProvider>
    </LanguageContext.Provider>
  );
}

export function useLanguage(): LanguageChoice {
  const value = useContext(LanguageContext);
  if (!value) throw new Error('LanguageProvider is missing above this component.');
  return value;
}
