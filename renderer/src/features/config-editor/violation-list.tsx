import type { JsonPath } from '../../../../shared/config/violations.js';
import { useTranslations } from 'use-intl';

/** A problem as the list shows it: from validation (json_path) or from the JSON syntax (offset). */
export interface ListedProblem {
  key: string;
  level: 'error' | 'warning';
  description: string;
  path?: JsonPath;
  /** Where in the text it is: the list follows the text's order. */
  offset: number;
  line: number;
}

export function pathText(path: JsonPath): string {
  if (path.length === 0) return '(whole configuration)';
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? part : `.${part}`)).join('');
}

/** Every problem in the order of the text; a click (or Enter) moves the editor cursor to it. */
export function ViolationList({ problems, pending, onPick }: { problems: readonly ListedProblem[]; pending: boolean; onPick: (problem: ListedProblem) => void }) {
  const errors = problems.filter((p) => p.level === 'error').length;
  const warnings = problems.length - errors;
  const t = useTranslations('config');
  const tCommon = useTranslations('common');
  return (
    <aside className="violations" aria-labelledby="violations-title">
      <h2 id="violations-title">
        {t('problems')}
        <span className={`pill ${errors > 0 ? 'pill-error' : 'pill-quiet'}`}>{tCommon('errors', { count: errors })}</span>
        <span className={`pill ${warnings > 0 ? 'pill-warning' : 'pill-quiet'}`}>{tCommon('warnings', { count: warnings })}</span>
      </h2>
      <p className="muted small" aria-live="polite">
        {pending ? t('checking') : problems.length === 0 ? t('valid') : t('clickProblem')}
      </p>
      <ul className="violation-list" aria-label={t('violations')}>
        {problems.map((problem) => (
          <li key={problem.key}>
            <button type="button" className={`violation violation-${problem.level}`} data-level={problem.level} onClick={() => onPick(problem)}>
              <span className="violation-level">{t(`levels.${problem.level}`)}</span>
              <span className="violation-text">{problem.description}</span>
              <span className="violation-path mono">
                {problem.path ? pathText(problem.path) : ''}
                {t('line', { line: problem.line })}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </aside>
  );
}
