import { errorText } from '../api/index.js';

/** An API failure said plainly, with what the operator can do about it. */
export function ErrorNotice({ title, error }: { title: string; error: unknown }) {
  return (
    <div className="notice notice-error" role="alert">
      <strong>{title}</strong>
      <p>{errorText(error)}</p>
    </div>
  );
}
